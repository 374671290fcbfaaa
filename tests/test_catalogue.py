"""The catalogue keeps its conventions, and every declaration is complete."""

import ast
from pathlib import Path

from sdkprobe import catalogue
from sdkprobe.areas import AREAS, order
from sdkprobe.behaviour import SUMMARY_LENGTH, summary_problem
from sdkprobe.report.cells import declaration

REPORTS = Path(__file__).resolve().parent.parent / "reports"


def test_each_behaviour_is_declared_in_its_areas_module_at_the_line_of_its_behaviour():
    for b in catalogue.load():
        module = b.probe.__module__.rsplit(".", 1)[1]
        assert module.split("_", 1)[0] == b.area, b.id
        path, line = declaration(b.id).split("#L")
        assert (REPORTS / path).resolve() == Path(catalogue.__file__).parent / f"{module}.py", b.id
        # the line Python gives the decorated probe is that of its first decorator, @behaviour(
        assert int(line) == b.probe.__code__.co_firstlineno, b.id


def test_every_builtin_behaviour_has_a_one_line_summary_of_the_allowed_length():
    shortest, longest = SUMMARY_LENGTH
    missing = [b.id for b in catalogue.load() if b.summary is None]
    assert not missing, f"no summary: {missing}"
    for b in catalogue.load():
        assert summary_problem(b.summary) is None, b.id
        assert b.summary is not None and "\n" not in b.summary and shortest <= len(b.summary) <= longest, b.id


def test_each_summary_follows_its_claim_in_the_declaration():
    """`summary=` stands right after `claim=`, so a reader checks one against the other."""
    for path in sorted(Path(catalogue.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "behaviour":
                names = [k.arg for k in node.keywords]
                assert names[names.index("claim") + 1] == "summary", (path.name, names)


def test_every_module_is_an_area_or_a_topic_of_one_and_every_behaviour_has_a_decision():
    modules = {p.stem for p in (Path(catalogue.__file__).parent).glob("*.py")} - {"__init__"}
    assert {m.split("_", 1)[0] for m in modules} <= {a.name for a in AREAS}
    for b in catalogue.load():
        assert b.decision is not None, b.id


def test_a_support_module_is_no_topic_and_declares_no_behaviour():
    folder = Path(catalogue.__file__).parent
    support = sorted(p.stem for p in folder.glob("*.py") if catalogue.is_support(p.stem))
    assert "agents_support" in support
    assert all(m.removesuffix(catalogue.SUPPORT) in {a.name for a in AREAS} for m in support), support
    assert not [b.id for b in catalogue.load() if catalogue.is_support(b.probe.__module__.rsplit(".", 1)[1])]


def test_load_orders_by_declared_area_then_id():
    ids = [(order(b.area), b.id) for b in catalogue.load()]
    assert ids == sorted(ids)


def test_an_id_no_module_declares_links_to_its_areas_main_module():
    assert declaration("mcp.no-such-behaviour") == "../probes/catalogue/mcp.py"


def test_links_are_relative_to_the_matrix_folder_inside_the_project(tmp_path):
    from sdkprobe.report.cells import project_from

    nested = REPORTS / "cli-axis"
    assert project_from(REPORTS) == ".." and project_from(nested) == "../.."
    assert (nested / declaration("hooks.no-such-behaviour", project_from(nested))).resolve() == (
        Path(catalogue.__file__).parent / "hooks.py"
    )
    assert project_from(tmp_path) == ".."  # elsewhere: as from reports/, never this machine's path


def test_behaviour_modules_import_what_the_catalogues_rule_allows():
    """probes/catalogue/__init__.py: sdkprobe.behaviour, sdkprobe.harness's public names, an
    area's support module, and the SDK's own public API, its names imported where used
    (never at a module's top, which would break loading on a version without them)."""
    allowed = {"sdkprobe.behaviour", "sdkprobe.harness"}
    for path in sorted(Path(catalogue.__file__).parent.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        top = set(tree.body)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                mods = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                mods = [node.module]
                assert not [a.name for a in node.names if a.name.startswith("_")], (path.name, node.module)
                if node.module.startswith("claude_agent_sdk"):
                    assert node not in top, f"{path.name}: from {node.module} import ... at the module's top"
            else:
                continue
            for mod in mods:
                if mod.startswith("sdkprobe"):
                    support = mod.startswith("sdkprobe.catalogue.") and catalogue.is_support(mod.rsplit(".", 1)[1])
                    assert mod in allowed or support or path.stem == "__init__", (path.name, mod)
                if mod.startswith("claude_agent_sdk"):
                    assert not any(part.startswith("_") for part in mod.split(".")), (path.name, mod)


def test_an_old_id_stands_right_after_the_id_and_resolves_to_it():
    """renamed_from is written on the line after id=, so a reader sees both names together;
    every old id resolves to its behaviour and to no declared id's."""
    for path in sorted(Path(catalogue.__file__).parent.glob("*.py")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for n, line in enumerate(lines):
            if line.strip().startswith("renamed_from="):
                assert lines[n - 1].strip().startswith("id="), f"{path.name}:{n + 1}"
    renames = catalogue.renames()
    declared = {b.id for b in catalogue.load()}
    assert len(renames) >= 8 and not set(renames) & declared and set(renames.values()) <= declared
    assert all(catalogue.by_id(old).id == new for old, new in renames.items())
