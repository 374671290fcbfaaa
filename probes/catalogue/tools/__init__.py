"""Area `tools`: which tools the model is offered, and what the options change."""
