"""What a TypeScript declaration file (`sdk.d.ts`) says a package exports: enough of its
syntax to name the keys of an object type, the methods of an interface and the exported
functions, across the layouts the TS SDK has shipped.

Not a TypeScript parser: comments are dropped and strings and template literals kept as one
token each (so a brace inside either never counts), and only top-level declarations are
read. What is followed, since the SDK's releases need it:

- `export declare type X = {...}`, `export type X = ...`, `interface X extends A, B {...}`,
  with or without `declare`/`export` (0.1.x and 0.2.x write `export type`/`export interface`);
- a type made of `&` and `|` of object literals, named types, `Omit<T, 'a' | 'b'>`,
  `Pick<T, ...>`, `Partial<T>`/`Required<T>`/`Readonly<T>` (0.0.4's `Options` is
  `Omit<BaseOptions, ...> & {...}` of a type imported from another file);
- `export * from './x.js'`, `export { a, b as c } from './x.js'`, `export { a }` and imports,
  to the other `.d.ts` files of the package (0.1.77's sdk.d.ts is one `export *` line).

Names a file does not declare and cannot reach (AsyncGenerator, a peer package's types)
add nothing. Every parse is cached per file.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

Token = tuple[str, str]  # (kind, text); kind: "name", "str" (a quoted string's text), "tpl", "punct"

_NAME = re.compile(r"[A-Za-z_$][\w$]*|\d[\w.]*")
_PUNCT2 = ("=>", "...", "?.")
_OPEN = {"(": ")", "[": "]", "{": "}", "<": ">"}
_CLOSE = {v: k for k, v in _OPEN.items()}
_MODIFIERS = {"export", "declare", "default", "abstract", "async"}
_MEMBER_MODIFIERS = {
    "readonly",
    "static",
    "public",
    "private",
    "protected",
    "abstract",
    "declare",
    "override",
    "+",
    "-",
}
# Words that, outside any brackets, start the next statement: a type alias whose `;` is left out ends there.
_STATEMENT_STARTS = {"export", "declare", "import", "interface", "type", "function", "class", "enum", "const"}
_PASS_THROUGH = {"Partial", "Required", "Readonly", "NonNullable"}


class DtsError(ValueError):
    """Text the tokenizer cannot read (an unclosed comment, string or template literal)."""


# --- tokens --------------------------------------------------------------------------------


def tokens(text: str) -> list[Token]:
    """The tokens of TypeScript text, comments dropped."""
    out: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end + 1
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                raise DtsError(f"unclosed comment at offset {i}")
            i = end + 2
        elif c in "'\"":
            end = _string_end(text, i)
            out.append(("str", _unescape(text[i + 1 : end - 1])))
            i = end
        elif c == "`":
            end = _template_end(text, i)
            out.append(("tpl", text[i:end]))
            i = end
        else:
            match = _NAME.match(text, i)
            if match:
                out.append(("name", match.group()))
                i = match.end()
                continue
            two = next((p for p in _PUNCT2 if text.startswith(p, i)), None)
            out.append(("punct", two or c))
            i += len(two or c)
    return out


def _string_end(text: str, start: int) -> int:
    """The index just after the quoted string opening at `start`."""
    quote, i = text[start], start + 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
        elif text[i] == quote:
            return i + 1
        elif text[i] == "\n":
            break
        else:
            i += 1
    raise DtsError(f"unclosed string at offset {start}")


def _template_end(text: str, start: int) -> int:
    """The index just after the template literal opening at `start`, `${...}` nesting included."""
    i = start + 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
        elif text[i] == "`":
            return i + 1
        elif text.startswith("${", i):
            i = _placeholder_end(text, i + 2)
        else:
            i += 1
    raise DtsError(f"unclosed template literal at offset {start}")


def _placeholder_end(text: str, i: int) -> int:
    """The index just after the `}` closing a template's `${`, whose inside starts at `i`."""
    depth = 1
    while i < len(text):
        c = text[i]
        if c in "'\"":
            i = _string_end(text, i)
        elif c == "`":
            i = _template_end(text, i)
        elif c == "{":
            depth, i = depth + 1, i + 1
        elif c == "}":
            depth, i = depth - 1, i + 1
            if depth == 0:
                return i
        else:
            i += 1
    raise DtsError("unclosed ${ in a template literal")


def _unescape(body: str) -> str:
    return re.sub(r"\\(.)", r"\1", body)


def _is(tok: Token, text: str) -> bool:
    return tok[0] in ("punct", "name") and tok[1] == text


def _skip(toks: Sequence[Token], i: int, stops: Iterable[str] = (";",), words: Iterable[str] = ()) -> int:
    """The index of the first token from `i` that is in `stops` (or a name in `words`) outside
    any brackets (angle ones too: `=>` is one token, so a lone `>` closes one); len(toks) if none."""
    stops, words = set(stops), set(words)
    depth = 0
    for j in range(i, len(toks)):
        kind, text = toks[j]
        if depth == 0 and ((kind == "punct" and text in stops) or (kind == "name" and j > i and text in words)):
            return j
        if kind == "punct" and text in _OPEN:
            depth += 1
        elif kind == "punct" and text in _CLOSE:
            depth -= 1
            if depth < 0:
                return j
    return len(toks)


def _split(toks: Sequence[Token], seps: str) -> list[list[Token]]:
    """`toks` cut at each separator in `seps` outside any brackets; empty pieces dropped."""
    parts: list[list[Token]] = [[]]
    depth = 0
    for tok in toks:
        kind, text = tok
        if kind == "punct":
            if depth == 0 and text in seps:
                parts.append([])
                continue
            if text in _OPEN:
                depth += 1
            elif text in _CLOSE:
                depth -= 1
        parts[-1].append(tok)
    return [p for p in parts if p]


def _matching(toks: Sequence[Token], i: int) -> int:
    """The index of the bracket closing the one at `i`."""
    return _skip(toks, i + 1, stops=())


# --- declarations --------------------------------------------------------------------------


@dataclass(frozen=True)
class Decl:
    """One top-level declaration: a type alias's right-hand side, or an interface's body and
    the types it extends."""

    kind: str  # "type", "interface", "function", "class", "const", "enum", "namespace"
    name: str
    exported: bool
    body: tuple[Token, ...] = ()
    extends: tuple[tuple[Token, ...], ...] = ()


@dataclass
class Module:
    """What one .d.ts file declares and which files it reaches."""

    decls: dict[str, list[Decl]] = field(default_factory=dict)
    star_from: list[str] = field(default_factory=list)  # `export * from 'x'`
    named_from: list[tuple[str, str, str]] = field(default_factory=list)  # (exported as, name there, 'x')
    local_exports: list[tuple[str, str]] = field(default_factory=list)  # `export { a as b }`: (b, a)
    references: list[str] = field(default_factory=list)  # every module named after `from` / in import()
    imports: dict[str, tuple[str, str]] = field(default_factory=dict)  # `import { a as b } from 'x'`: b -> (a, 'x')

    def add(self, decl: Decl) -> None:
        self.decls.setdefault(decl.name, []).append(decl)


def parse(text: str) -> Module:
    """The top-level declarations and re-exports of one .d.ts file's text."""
    toks = tokens(text)
    module = Module()
    i = 0
    while i < len(toks):
        i = _statement(toks, i, module)
    return module


def _statement(toks: list[Token], i: int, module: Module) -> int:
    """Read the top-level statement at `i` into `module`; the index after it."""
    exported = False
    while i < len(toks) and toks[i][0] == "name" and toks[i][1] in _MODIFIERS:
        exported = exported or toks[i][1] == "export"
        i += 1
    if i >= len(toks):
        return i
    kind, text = toks[i]
    nxt = toks[i + 1] if i + 1 < len(toks) else ("punct", "")
    if exported and kind == "name" and text == "type" and _is(nxt, "{"):
        return _export_list(toks, i + 1, module)
    if exported and _is(toks[i], "{"):
        return _export_list(toks, i, module)
    if exported and _is(toks[i], "*"):
        end = _skip(toks, i)
        source = _from(toks[i:end])
        if source is not None:
            module.references.append(source)
            if not any(_is(t, "as") for t in toks[i:end]):
                module.star_from.append(source)
        return end + 1
    if kind == "name" and text == "import":
        end = _skip(toks, i)
        module.references.extend(t[1] for t in toks[i:end] if t[0] == "str")
        _import_list(toks[i:end], module)
        return end + 1
    if kind == "name" and text == "type" and nxt[0] == "name":
        return _type_alias(toks, i + 1, exported, module)
    if kind == "name" and text == "interface" and nxt[0] == "name":
        return _interface(toks, i + 1, exported, module)
    if kind == "name" and text == "function" and nxt[0] == "name":
        module.add(Decl("function", nxt[1], exported))
        return _skip(toks, i + 2) + 1
    if kind == "name" and text in ("const", "let", "var") and nxt[0] == "name":
        module.add(Decl("const", nxt[1], exported))
        return _skip(toks, i + 2) + 1
    if kind == "name" and text in ("class", "enum", "namespace", "module", "global"):
        if nxt[0] == "name" and text != "global":
            module.add(Decl({"module": "namespace"}.get(text, text), nxt[1], exported))
        return _past_block(toks, i + 1)
    end = _skip(toks, i + 1, words=_STATEMENT_STARTS)  # anything else: to its end
    return end + 1 if end < len(toks) and _is(toks[end], ";") else end


def _past_block(toks: list[Token], i: int) -> int:
    """The index after the `{...}` block of a class, enum or namespace whose head starts at `i`."""
    brace = _skip(toks, i, stops=("{", ";"))
    if brace >= len(toks) or _is(toks[brace], ";"):
        return brace + 1
    return _matching(toks, brace) + 1


def _export_list(toks: list[Token], brace: int, module: Module) -> int:
    """`export { a, b as c } [from 'x'];` with `brace` at its `{`."""
    close = _matching(toks, brace)
    end = _skip(toks, close + 1, words=_STATEMENT_STARTS)
    source = _from(toks[close + 1 : end])
    if source is not None:
        module.references.append(source)
    for inner, outer in _names(toks[brace + 1 : close]):
        if source is None:
            module.local_exports.append((outer, inner))
        else:
            module.named_from.append((outer, inner, source))
    return end + 1 if end < len(toks) and _is(toks[end], ";") else end


def _import_list(toks: Sequence[Token], module: Module) -> None:
    """The names `import [type] { a, b as c } from 'x'` brings in, by the name used here."""
    source = _from(toks)
    brace = next((j for j, t in enumerate(toks) if _is(t, "{")), None)
    if source is None or brace is None:
        return
    close = _matching(toks, brace)
    for inner, outer in _names(toks[brace + 1 : close]):
        module.imports[outer] = (inner, source)


def _names(toks: Sequence[Token]) -> Iterator[tuple[str, str]]:
    """(name there, name here) of each `a` or `a as b` (or `type a`) of a brace list."""
    for part in _split(toks, ","):
        words = [t[1] for t in part if t[0] in ("name", "str")]
        if words and words[0] == "type" and len(words) > 1:
            words = words[1:]
        if words:
            yield words[0], words[-1]


def _from(toks: Sequence[Token]) -> str | None:
    for j, tok in enumerate(toks[:-1]):
        if _is(tok, "from") and toks[j + 1][0] == "str":
            return toks[j + 1][1]
    return None


def _type_alias(toks: list[Token], i: int, exported: bool, module: Module) -> int:
    """`type NAME<...> = RHS;` with `i` at NAME."""
    name, j = toks[i][1], i + 1
    if j < len(toks) and _is(toks[j], "<"):
        j = _matching(toks, j) + 1
    if j >= len(toks) or not _is(toks[j], "="):
        return j
    end = _skip(toks, j + 1, words=_STATEMENT_STARTS)
    module.add(Decl("type", name, exported, tuple(toks[j + 1 : end])))
    module.references.extend(_imported_types(toks[j + 1 : end]))
    return end + 1 if end < len(toks) and _is(toks[end], ";") else end


def _interface(toks: list[Token], i: int, exported: bool, module: Module) -> int:
    """`interface NAME<...> extends A, B<...> { ... }` with `i` at NAME."""
    name, j = toks[i][1], i + 1
    if j < len(toks) and _is(toks[j], "<"):
        j = _matching(toks, j) + 1
    brace = _skip(toks, j, stops=("{",))
    if brace >= len(toks):
        return brace
    heritage: list[tuple[Token, ...]] = []
    if j < brace and _is(toks[j], "extends"):
        heritage = [tuple(p) for p in _split(toks[j + 1 : brace], ",")]
    close = _matching(toks, brace)
    module.add(Decl("interface", name, exported, tuple(toks[brace + 1 : close]), tuple(heritage)))
    return close + 1


def _imported_types(toks: Sequence[Token]) -> Iterator[str]:
    """Files named by `import('x')` types inside a declaration."""
    for j in range(len(toks) - 2):
        if _is(toks[j], "import") and _is(toks[j + 1], "(") and toks[j + 2][0] == "str":
            yield toks[j + 2][1]


# --- members -------------------------------------------------------------------------------


def members(body: Sequence[Token]) -> list[tuple[str, bool]]:
    """(name, is a method) of each member of an object type's or interface's body, in order;
    index signatures, computed keys and call or construct signatures have no name and are left out."""
    found: list[tuple[str, bool]] = []
    for part in _split(body, ";,"):
        member = _member(part)
        if member is not None:
            found.append(member)
    return found


def _member(part: list[Token]) -> tuple[str, bool] | None:
    toks = list(part)
    while len(toks) > 1 and toks[0][1] in _MEMBER_MODIFIERS and toks[0][0] != "str" and _starts_member(toks[1:]):
        toks = toks[1:]
    if len(toks) > 2 and toks[0][0] == "name" and toks[0][1] in ("get", "set") and _starts_member(toks[1:]):
        return (toks[1][1], False)  # an accessor reads as a property
    if not toks or toks[0][0] not in ("name", "str") or (toks[0][1] == "new" and len(toks) > 1 and _is(toks[1], "(")):
        return None
    name, rest = toks[0][1], toks[1:]
    if rest and _is(rest[0], "?"):
        rest = rest[1:]
    if not rest:
        return (name, False)
    if _is(rest[0], "(") or _is(rest[0], "<"):
        return (name, True)
    return (name, False) if _is(rest[0], ":") else None


def _starts_member(toks: Sequence[Token]) -> bool:
    """Whether `toks` can begin a named member, i.e. whether the word before it is a modifier."""
    return bool(toks) and toks[0][0] in ("name", "str")


# --- the package: files reached from its entry ---------------------------------------------


@lru_cache(maxsize=64)
def read_module(path: Path) -> Module:
    """One .d.ts file, parsed once per process (a release's files never change once installed)."""
    return parse(path.read_text(encoding="utf-8"))


def resolve(spec: str, beside: Path) -> Path | None:
    """The .d.ts file a relative module specifier (`./x.js`, `./x.d.ts`, `./x`) names, or None."""
    if not spec.startswith("."):
        return None
    base = (beside.parent / spec).resolve()
    stem = re.sub(r"\.(d\.)?(m|c)?(js|ts)$", "", base.name)
    for candidate in (
        base if base.name.endswith(".ts") else None,
        base.with_name(stem + ".d.ts"),
        base.with_name(stem + ".d.mts"),
        base / "index.d.ts",
    ):
        if candidate is not None and candidate.is_file():
            return candidate
    return None


class Package:
    """The declarations reachable from a package's entry .d.ts."""

    def __init__(self, entry: Path) -> None:
        self.entry = entry.resolve()
        self._reachable: dict[Path, list[Path]] = {}

    def module(self, path: Path) -> Module:
        return read_module(path)

    def reachable(self, start: Path) -> list[Path]:
        """`start` and every .d.ts file it reaches by imports and re-exports, nearest first."""
        if start in self._reachable:
            return self._reachable[start]
        order, queue = [start], [start]
        while queue:
            here = queue.pop(0)
            for spec in self.module(here).references:
                there = resolve(spec, here)
                if there is not None and there not in order:
                    order.append(there)
                    queue.append(there)
        self._reachable[start] = order
        return order

    def lookup(self, name: str, start: Path | None = None) -> tuple[Decl, Path] | None:
        """The type or interface `name` as seen from `start` (default: the entry): declared
        there, imported there under that name, else the nearest file reached that declares it."""
        start = start or self.entry
        return self._declared_or_imported(name, start, frozenset()) or next(
            (found for path in self.reachable(start) if (found := self._declared(name, path))), None
        )

    def _declared(self, name: str, path: Path) -> tuple[Decl, Path] | None:
        decl = next((d for d in self.module(path).decls.get(name, []) if d.kind in ("type", "interface")), None)
        return None if decl is None else (decl, path)

    def _declared_or_imported(self, name: str, path: Path, seen: frozenset[Path]) -> tuple[Decl, Path] | None:
        if path in seen:
            return None
        found = self._declared(name, path)
        imported = self.module(path).imports.get(name)
        if found is None and imported is not None:
            there = resolve(imported[1], path)
            if there is not None:
                return self._declared_or_imported(imported[0], there, seen | {path})
        return found

    def type_members(self, name: str) -> list[tuple[str, bool]] | None:
        """The members of type or interface `name`, None when the package declares none of that name."""
        found = self.lookup(name)
        if found is None:
            return None
        return self._decl_members(*found, seen=frozenset())

    def _decl_members(self, decl: Decl, where: Path, seen: frozenset[tuple[Path, str]]) -> list[tuple[str, bool]]:
        if (where, decl.name) in seen:  # a type that reaches itself adds nothing the second time
            return []
        seen = seen | {(where, decl.name)}
        if decl.kind == "type":
            return self._expr_members(list(decl.body), where, seen)
        own = members(decl.body)
        inherited = [m for base in decl.extends for m in self._expr_members(list(base), where, seen)]
        return own + inherited

    def _expr_members(
        self, toks: list[Token], where: Path, seen: frozenset[tuple[Path, str]]
    ) -> list[tuple[str, bool]]:
        """The members of a type expression: object literals joined by `&` or `|`, named types,
        and the utility types that keep or drop keys."""
        while len(toks) > 1 and _is(toks[0], "(") and _matching(toks, 0) == len(toks) - 1:
            toks = toks[1:-1]
        for sep in "|&":
            parts = _split(toks, sep)
            if len(parts) > 1:
                return [m for part in parts for m in self._expr_members(part, where, seen)]
        if not toks:
            return []
        if _is(toks[0], "{") and _matching(toks, 0) == len(toks) - 1:
            return members(toks[1:-1])
        if toks[0][0] != "name":
            return []
        args = self._type_args(toks)
        head = toks[0][1]
        if head in _PASS_THROUGH and len(args) == 1:
            return self._expr_members(args[0], where, seen)
        if head == "Omit" and len(args) == 2:
            dropped = self._literals(args[1], where)
            return [m for m in self._expr_members(args[0], where, seen) if m[0] not in dropped]
        if head == "Pick" and len(args) == 2:
            kept = self._literals(args[1], where)
            return [m for m in self._expr_members(args[0], where, seen) if m[0] in kept]
        if len(toks) == 1 or args:
            found = self.lookup(head, where)
            if found is not None:
                return self._decl_members(found[0], found[1], seen)
        return []

    def _type_args(self, toks: list[Token]) -> list[list[Token]]:
        """The arguments of `Name<A, B>` when `toks` is exactly that; [] otherwise."""
        if len(toks) < 3 or not _is(toks[1], "<") or _matching(toks, 1) != len(toks) - 1:
            return []
        return _split(toks[2:-1], ",")

    def _literals(self, toks: list[Token], where: Path) -> set[str]:
        """The string literals a key type names: `'a' | 'b'`, or a type alias of them."""
        if len(toks) == 1 and toks[0][0] == "name":
            found = self.lookup(toks[0][1], where)
            if found is not None and found[0].kind == "type":
                toks = list(found[0].body)
        return {t[1] for t in toks if t[0] == "str"}

    def exported_functions(self) -> list[str]:
        """Names the entry exports that are declared functions, re-exports followed."""
        return sorted(self._functions(self.entry, frozenset()))

    def _functions(self, path: Path, seen: frozenset[Path]) -> set[str]:
        if path in seen:
            return set()
        seen = seen | {path}
        module = self.module(path)
        names = {n for n, ds in module.decls.items() if any(d.kind == "function" and d.exported for d in ds)}
        for outer, inner in module.local_exports:
            if any(d.kind == "function" for d in module.decls.get(inner, [])):
                names.add(outer)
        for spec in module.star_from:
            there = resolve(spec, path)
            if there is not None:
                names |= self._functions(there, seen)
        for outer, inner, spec in module.named_from:
            there = resolve(spec, path)
            if there is not None and inner in self._functions(there, seen):
                names.add(outer)
        return names


@lru_cache(maxsize=16)
def package(entry: Path) -> Package:
    """The declarations of the package whose entry .d.ts is `entry`, read once per process."""
    return Package(entry)
