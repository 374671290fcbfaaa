"""Area `config`: setting sources, memory, skills and what reaches the model's context."""
