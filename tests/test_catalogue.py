"""The catalogue keeps its conventions, and every declaration is complete."""

import ast
from pathlib import Path

from sdkprobe import catalogue
from sdkprobe.areas import AREAS, order
from sdkprobe.behaviour import SUMMARY_LENGTH, summary_problem
from sdkprobe.report.cells import declaration

REPORTS = Path(__file__).resolve().parent.parent / "reports"
FOLDER = Path(catalogue.__file__).parent
MODULES = sorted(p for p in FOLDER.glob("*/*.py") if p.stem != "__init__")  # every module of every area package
# A module holds a handful of behaviours about one subject: between these many, and at most so many lines.
BEHAVIOURS_PER_MODULE = (2, 10)
LINES_PER_MODULE = 1400
# Words that name where a claim came from, not what it is about: never in a module's name or header.
PROVENANCE = ("reported", "contract", "catalogue-", "catalogue ", "part a", "part b", "users' reports", "issue tracker")


def test_each_behaviour_is_declared_in_its_areas_package_at_the_line_of_its_behaviour():
    for b in catalogue.load():
        package, module = b.probe.__module__.split(".")[-2:]
        assert package == b.area, b.id
        path, line = declaration(b.id).split("#L")
        where = (REPORTS / path).resolve()  # the registry's: the probe's own file
        assert where == Path(b.probe.__code__.co_filename).resolve() == FOLDER / package / f"{module}.py", b.id
        # the line Python gives the decorated probe is that of its first decorator, @behaviour(
        assert int(line) == b.probe.__code__.co_firstlineno, b.id
        assert (REPORTS / path).read_text(encoding="utf-8").splitlines()[int(line) - 1] == "@behaviour(", b.id


def test_every_builtin_behaviour_has_a_one_line_summary_of_the_allowed_length():
    shortest, longest = SUMMARY_LENGTH
    missing = [b.id for b in catalogue.load() if b.summary is None]
    assert not missing, f"no summary: {missing}"
    for b in catalogue.load():
        assert summary_problem(b.summary) is None, b.id
        assert b.summary is not None and "\n" not in b.summary and shortest <= len(b.summary) <= longest, b.id


def test_each_summary_follows_its_claim_in_the_declaration():
    """`summary=` stands right after `claim=`, so a reader checks one against the other."""
    for path in MODULES:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "behaviour":
                names = [k.arg for k in node.keywords]
                assert names[names.index("claim") + 1] == "summary", (path.name, names)


def test_every_module_lives_in_an_area_package_and_every_behaviour_has_a_decision():
    assert [p.name for p in FOLDER.glob("*.py")] == ["__init__.py"]  # no module outside an area's package
    packages = {p.name for p in FOLDER.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert packages == {a.name for a in AREAS}
    assert all((FOLDER / name / "__init__.py").exists() for name in packages)
    assert not list(FOLDER.glob("*/*/*.py"))  # one level: area/module.py
    for b in catalogue.load():
        assert b.decision is not None, b.id


def test_modules_are_named_for_their_subject_and_hold_a_handful_of_behaviours():
    by_module: dict[str, int] = {}
    for b in catalogue.load():
        by_module[b.probe.__module__] = by_module.get(b.probe.__module__, 0) + 1
    low, high = BEHAVIOURS_PER_MODULE
    for path in MODULES:
        text = path.read_text(encoding="utf-8")
        header = (ast.get_docstring(ast.parse(text)) or "").lower()
        assert header, f"{path.parent.name}/{path.name}: no header saying what its behaviours are about"
        named = [w for w in PROVENANCE if w in path.stem.replace("_", " ") or w in header]
        assert not named, f"{path.parent.name}/{path.name} is named for where its claims came from: {named}"
        assert "CATALOGUE-" not in text, f"{path.parent.name}/{path.name} cites a planning document not in the project"
        assert len(text.splitlines()) <= LINES_PER_MODULE, (
            f"{path.parent.name}/{path.name}: over {LINES_PER_MODULE} lines"
        )
        if catalogue.is_support(path.stem):
            continue
        count = by_module.get(f"sdkprobe.catalogue.{path.parent.name}.{path.stem}", 0)
        assert low <= count <= high, f"{path.parent.name}/{path.name} holds {count} behaviours, not {low}-{high}"


def test_the_module_rule_notices_a_module_named_for_a_provenance():
    assert [w for w in PROVENANCE if w in "hooks reported"] == ["reported"]
    assert [w for w in PROVENANCE if w in "the checks of catalogue-4 part b"]


def test_a_support_module_declares_no_behaviour_and_exports_public_names():
    support = sorted(p for p in MODULES if catalogue.is_support(p.stem))
    assert "agents" in {p.parent.name for p in support}
    assert not [b.id for b in catalogue.load() if catalogue.is_support(b.probe.__module__)]
    for path in support:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        defined = [n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
        assert not [n for n in defined if n.startswith("_")], path  # its modules import them: public names


def test_load_orders_by_declared_area_then_id():
    ids = [(order(b.area), b.id) for b in catalogue.load()]
    assert ids == sorted(ids)


def test_an_id_no_module_declares_links_to_its_areas_main_module():
    assert declaration("mcp.no-such-behaviour") == "../probes/catalogue/mcp/"


def test_links_are_relative_to_the_matrix_folder_inside_the_project(tmp_path):
    from sdkprobe.report.cells import project_from

    nested = REPORTS / "cli-axis"
    assert project_from(REPORTS) == ".." and project_from(nested) == "../.."
    assert (nested / declaration("hooks.no-such-behaviour", project_from(nested))).resolve() == (
        Path(catalogue.__file__).parent / "hooks"
    )
    assert project_from(tmp_path) == ".."  # elsewhere: as from reports/, never this machine's path


def test_behaviour_modules_import_what_the_catalogues_rule_allows():
    """probes/catalogue/__init__.py: sdkprobe.behaviour, sdkprobe.harness's public names, an
    area's support module, and the SDK's own public API, its names imported where used
    (never at a module's top, which would break loading on a version without them)."""
    allowed = {"sdkprobe.behaviour", "sdkprobe.harness"}
    for path in [FOLDER / "__init__.py", *MODULES]:
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
                    support = mod == f"sdkprobe.catalogue.{path.parent.name}.{catalogue.SUPPORT}"  # its own area's
                    assert mod in allowed or support or path.stem == "__init__", (path.name, mod)
                if mod.startswith("claude_agent_sdk"):
                    assert not any(part.startswith("_") for part in mod.split(".")), (path.name, mod)


def test_an_old_id_stands_right_after_the_id_and_resolves_to_it():
    """renamed_from is written on the line after id=, so a reader sees both names together;
    every old id resolves to its behaviour and to no declared id's."""
    for path in [FOLDER / "__init__.py", *MODULES]:
        lines = path.read_text(encoding="utf-8").splitlines()
        for n, line in enumerate(lines):
            if line.strip().startswith("renamed_from="):
                assert lines[n - 1].strip().startswith("id="), f"{path.name}:{n + 1}"
    renames = catalogue.renames()
    declared = {b.id for b in catalogue.load()}
    assert len(renames) >= 8 and not set(renames) & declared and set(renames.values()) <= declared
    assert all(catalogue.by_id(old).id == new for old, new in renames.items())


def test_every_package_of_the_catalogue_is_installed_by_a_plain_install():
    """pyproject.toml lists its packages by name: an area package missing there would install
    a catalogue without that area's behaviours."""
    tomllib = __import__("tomllib")  # Python 3.11+, as the tests run
    listed = set(tomllib.loads((REPORTS.parent / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {f"sdkprobe.catalogue.{p.parent.name}" for p in FOLDER.glob("*/__init__.py")}
    assert found and found <= listed, sorted(found - listed)
