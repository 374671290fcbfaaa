"""A script per model: the double answers each request from the script of the model it
names, so a probe sees which model a session talks to.

A session can change models in its course: `fallback_model` when the main one is
overloaded, `set_model()` between two requests of one turn, a subagent's own `model`.
With one script per model, "the main model answers 529, the fallback answers text" is
scriptable, and each model's replies are told apart in what the session yields; which
model each request named is `Recorded.model`.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator, Mapping, Sequence

from sdkprobe.harness.model_double.recorded import Recorded
from sdkprobe.harness.model_double.script import Reply, Script


class ByModel(Script):
    """`ByModel({"m-main": Script(fallback=http_error(529, "Overloaded")), "m-fb": ["done"]})`.

    Each request is answered from the script of the model it names (a list is that
    model's main-route replies; a Script keeps its own routes and fallback), and a
    request naming any other model, or none, from `other` (an empty Script by default:
    the double's short default text, flagged unscripted). Tool_use ids the double numbers
    itself are unique across the lists given (`toolu_double_m<k>_<n>` for the k-th
    model); Scripts given whole number their own, so give ids explicitly where two of
    them call tools in one conversation. `check_tool_results` applies to every request.
    """

    def __init__(
        self,
        models: Mapping[str, Script | Sequence[Reply | str]],
        *,
        other: Script | Sequence[Reply | str] | None = None,
        check_tool_results: bool = False,
    ) -> None:
        super().__init__(check_tool_results=check_tool_results)
        if not models:
            raise ValueError("ByModel needs a script for at least one model")
        self.models = {name: _script(s, k) for k, (name, s) in enumerate(models.items(), start=1)}
        self.other = _script(other or (), 0)

    def answer(self, request: Recorded) -> tuple[Reply, bool]:
        script = self.models.get(request.model or "", self.other)
        return script.answer(request)

    def next(self, route: str) -> tuple[Reply, bool]:
        """A reply with no request to read a model from: the `other` script's."""
        return self.other.next(route)

    def remaining(self) -> dict[str, int]:
        """Replies left, keyed `model:route` (`*:route` for `other`)."""
        left = {f"{m}:{r}": n for m, s in self.models.items() for r, n in s.remaining().items()}
        return left | {f"*:{r}": n for r, n in self.other.remaining().items()}


def _script(s: Script | Sequence[Reply | str], k: int) -> Script:
    if isinstance(s, Script):
        return s
    ids = itertools.count(1)
    return Script(main=[_ids_given(x, k, ids) for x in s])


def _ids_given(x: Reply | str, k: int, ids: Iterator[int]) -> Reply | str:
    """`x` with an id on each tool_use block lacking one, unique to model number `k`."""
    if isinstance(x, str):
        return x
    blocks = tuple(
        {**b, "id": f"toolu_double_m{k}_{next(ids):06d}"} if b["type"] == "tool_use" and not b.get("id") else b
        for b in x.blocks
    )
    return dataclasses.replace(x, blocks=blocks)
