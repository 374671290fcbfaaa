"""Every cited source leads somewhere: an https URL, or the project's page on a design document
at the anchor of the cited section; and each page names the behaviours that cite it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from sdkprobe import catalogue
from sdkprobe.sources import SOURCES, Source, anchor, cite, unresolved

ROOT = Path(__file__).resolve().parent.parent
REPORTS = sorted([*ROOT.glob("reports/*.json"), *ROOT.glob("reports/cli-axis/*.json")])


def declared_citations() -> list[tuple[str, dict[str, str | None]]]:
    return [(b.id, cite(*b.source)) for b in catalogue.load()]


def report_citations() -> list[tuple[str, dict[str, str | None]]]:
    return [
        (f"{path.relative_to(ROOT)} {b['id']}", b["source"])
        for path in REPORTS
        for b in json.loads(path.read_text(encoding="utf-8"))["behaviours"]
    ]


def test_there_are_committed_reports_to_check():
    assert len(REPORTS) > 1 and any("cli-axis" in str(p) for p in REPORTS)


@pytest.mark.parametrize("citations", [declared_citations, report_citations], ids=["declared", "reports"])
def test_every_citation_resolves_to_a_url_or_a_page_holding_its_anchor(citations):
    nowhere = sorted({f"{where}: {why}" for where, s in citations() if (why := unresolved(s, ROOT))})
    assert not nowhere, "\n".join(nowhere)


def test_a_source_without_a_url_has_a_page_and_cite_stores_it():
    for s in SOURCES.values():
        assert s.url or s.page, s.key
    assert cite("004", "Auto mode")["page"] == "docs/sources/004.md"
    assert "page" not in cite("py#362", "")


def made_up(tmp_path: Path, page_text: str | None, **source: str | None) -> dict[str, str | None]:
    if page_text is not None:
        (tmp_path / "docs").mkdir(exist_ok=True)
        (tmp_path / "docs" / "note.md").write_text(page_text, encoding="utf-8")
    return {"key": "note", "title": "a team's note", "section": "Limits", "url": None, **source}


def test_the_checker_notices_a_missing_page_a_missing_anchor_and_nowhere_at_all(tmp_path):
    page = "docs/note.md"
    assert "no page docs/note.md" in unresolved(made_up(tmp_path, None, page=page), tmp_path)
    lacking = made_up(tmp_path, '<a id="other"></a>\n## Other\n## Limits\n', page=page)
    assert "has no anchor 'limits'" in unresolved(lacking, tmp_path)  # a heading is no anchor
    assert "neither an https URL nor a page" in unresolved(made_up(tmp_path, None), tmp_path)
    assert "neither" in unresolved(made_up(tmp_path, None, url="http://example.com/x"), tmp_path)
    assert unresolved(made_up(tmp_path, '<a id="limits"></a>\n## Limits\n', page=page), tmp_path) is None
    assert unresolved(made_up(tmp_path, None, url="https://example.com/x"), tmp_path) is None


def test_an_old_citation_without_a_page_finds_the_registrys():
    old = {"key": "004", "title": SOURCES["004"].title, "section": "Auto-modus", "url": None}
    assert unresolved(old, ROOT) is None  # the Dutch heading keeps its anchor on the page
    assert unresolved({**old, "section": "Nowhere on the page"}, ROOT) is not None


def test_an_anchor_is_lower_case_words_joined_by_dashes():
    assert anchor("Auto mode") == "auto-mode"
    assert anchor("AskUserQuestion: the answer goes through updatedInput") == (
        "askuserquestion-the-answer-goes-through-updatedinput"
    )
    assert anchor("The part nobody has written up: the subagent level") == (
        "the-part-nobody-has-written-up-the-subagent-level"
    )
    assert anchor("Configuración y contexto") == "configuracion-y-contexto"
    assert anchor("") == ""


def cited_on(page: Path) -> dict[str, set[str]]:
    """Each section of a page (by its first anchor) with the behaviour ids its 'Cited by' names."""
    sections: dict[str, set[str]] = {}
    for block in re.split(r"\n\n(?=<a id=)", page.read_text(encoding="utf-8"))[1:]:
        first = re.match(r'<a id="([^"]+)"></a>', block)
        assert first, block[:60]
        cited = re.search(r"^Cited by: (.*?)(?:\n\n|\Z)", block, re.MULTILINE | re.DOTALL)
        sections[first.group(1)] = set(re.findall(r"`([a-z]+\.[a-z0-9-]+)`", cited.group(1))) if cited else set()
    return sections


def test_each_page_names_exactly_the_behaviours_that_cite_each_section():
    declared: dict[tuple[str, str], set[str]] = {}
    for b in catalogue.load():
        declared.setdefault(b.source, set()).add(b.id)
    for key, source in sorted(SOURCES.items()):
        if source.page is None:
            continue
        listed = cited_on(ROOT / source.page)
        wanted = {anchor(section): ids for (k, section), ids in declared.items() if k == key}
        assert {a: ids for a, ids in listed.items() if ids} == wanted, source.page


def test_a_design_documents_page_says_what_it_is_its_date_and_version():
    for key in ("000", "001", "003", "004"):
        text = (ROOT / SOURCES[key].page).read_text(encoding="utf-8")
        assert "**What it is.**" in text and "**Date.**" in text and "**SDK version.**" in text, key
        assert f"Source key `{key}`" in text


def test_a_teams_source_may_have_a_page(monkeypatch):
    from sdkprobe import sources

    monkeypatch.setattr(sources, "SOURCES", dict(sources.SOURCES))
    assert sources.declare_source("team-note", "our note", page="docs/team.md") == Source(
        "team-note", "our note", None, "docs/team.md"
    )
    assert sources.cite("team-note", "Why")["page"] == "docs/team.md"
