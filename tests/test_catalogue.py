"""The catalogue keeps its conventions: reports link a behaviour to `probes/catalogue/<area>.py`."""

import re
from pathlib import Path

from probes.behaviour import all_behaviours
from probes.report.cells import declaration

REPORTS = Path(__file__).resolve().parent.parent / "reports"


def test_each_behaviour_is_declared_in_its_areas_module():
    for b in all_behaviours():
        assert b.probe.__module__ == f"probes.catalogue.{b.area}", b.id
        assert (REPORTS / declaration(b.id)).resolve().is_file()


def test_ids_sources_and_claims_are_well_formed():
    for b in all_behaviours():
        assert re.fullmatch(r"[a-z]+\.[a-z0-9-]+", b.id), b.id
        assert re.fullmatch(r"\d{3}_[0-9a-f]{16}\.txt", b.source[0]) and b.source[1], b.id
        assert len(b.claim) > 20, b.id
