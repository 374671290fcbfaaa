// What a package's declaration file exports, read with the TypeScript compiler API.
//
// node declarations.mjs TYPESCRIPT_JS ENTRY_D_TS
//
// Prints one JSON object: {"exports": {NAME: ENTRY}}, an entry being
//   {"kind": "function" | "class" | "type" | "const" | "enum",
//    "fields": {KEY: FIELD}     the properties of an object type (of every member of a union),
//    "members": [{"name", "fields"}]  the object types a union is made of, each with its fields,
//    "literals": [...]          the string values of a string-literal union or a tuple of them,
//    "parameters": [{"name", "fields"}]  a function type's parameters (their object fields),
//    "error": true              a class deriving from Error}
// and FIELD being {"optional", "method", "kinds", "literals"?, "members"?}: "kinds" the sorted kinds of
// value it takes ("string", "number", "boolean", "array", "object", "function", "null"; "any" for
// any, unknown or a type parameter), "members" the object types it is (a union of them, its
// other members aside, or one named type; one level deep).
// The compiler, not a tokenizer, resolves what the file writes: `export *`, re-exports,
// intersections, Omit/Pick/Partial, interfaces extending others. Properties the default
// library declares (an AsyncGenerator's next/return/throw) and symbol-keyed ones are left
// out: they are JavaScript's, not the package's. Keys are sorted; unions keep the compiler's order.
import { createRequire } from "node:module";

const [typescriptJs, entry] = process.argv.slice(2);
let ts, program, checker; // set by main()

function sorted(object) {
  return Object.fromEntries(Object.entries(object).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function fromLibrary(symbol) {
  const decls = symbol.declarations ?? [];
  return decls.length > 0 && decls.every((d) => program.isSourceFileDefaultLibrary(d.getSourceFile()));
}

function present(type) {
  // a type without its undefined and null members (an optional field's `X | undefined`)
  if (!type.isUnion()) return [type];
  return type.types.filter((t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null)));
}

function literals(type) {
  const parts = present(type);
  if (checker.isTupleType(type)) {
    const items = checker.getTypeArguments(type);
    return items.length > 0 && items.every((t) => t.isStringLiteral()) ? items.map((t) => t.value) : null;
  }
  return parts.length > 0 && parts.every((t) => t.isStringLiteral()) ? parts.map((t) => t.value) : null;
}

function kinds(type) {
  // the kinds of JSON value a field's type takes, undefined aside
  const found = new Set();
  for (const part of type.isUnion() ? type.types : [type]) {
    const flags = part.flags;
    if (flags & ts.TypeFlags.Undefined) continue;
    else if (flags & ts.TypeFlags.Null) found.add("null");
    else if (flags & ts.TypeFlags.StringLike) found.add("string");
    else if (flags & ts.TypeFlags.NumberLike) found.add("number");
    else if (flags & ts.TypeFlags.BooleanLike) found.add("boolean");
    else if (checker.isArrayType(part) || checker.isTupleType(part)) found.add("array");
    else if (objectish(part)) found.add(part.getCallSignatures().length > 0 ? "function" : "object");
    else found.add("any");
  }
  return [...found].sort();
}

function objectish(type) {
  return !!(type.flags & ts.TypeFlags.Object) || type.isIntersection();
}

function nameOf(type) {
  const symbol = type.aliasSymbol ?? type.getSymbol();
  return symbol && !symbol.getName().startsWith("__") ? symbol.getName() : null;
}

function field(symbol, depth) {
  const decls = symbol.declarations ?? [];
  const out = {
    optional: !!(symbol.flags & ts.SymbolFlags.Optional),
    method: decls.some((d) => ts.isMethodSignature(d) || ts.isMethodDeclaration(d)),
  };
  const type = checker.getTypeOfSymbol(symbol);
  out.kinds = kinds(type);
  const values = literals(type);
  if (values) out.literals = values;
  const parts = present(type);
  const named = parts.length > 1 || (parts.length === 1 && nameOf(parts[0]) !== null);
  if (depth > 0 && named && parts.some(objectish)) out.members = members(parts, depth - 1);
  return out;
}

function fields(type, depth) {
  const parts = type.isUnion() ? present(type) : [type];
  const out = {};
  for (const part of parts) {
    if (!objectish(part)) continue;
    for (const symbol of checker.getPropertiesOfType(part)) {
      const key = symbol.getName();
      if (key.startsWith("__@") || fromLibrary(symbol) || key in out) continue;
      out[key] = field(symbol, depth);
    }
  }
  return sorted(out);
}

function members(parts, depth) {
  return parts.filter(objectish).map((part) => ({ name: nameOf(part), fields: fields(part, depth) }));
}

function describe(type, kind) {
  const out = { kind };
  const values = literals(type);
  if (values) {
    out.literals = values;
    return out;
  }
  out.fields = fields(type, 1);
  const parts = present(type);
  if (type.isUnion() && parts.length > 1) out.members = members(parts, 1);
  const signature = type.getCallSignatures()[0];
  if (signature && kind === "type") {
    out.parameters = signature.getParameters().map((p) => ({
      name: p.getName(),
      fields: fields(checker.getTypeOfSymbol(p), 0),
    }));
  }
  return out;
}

function derivesFromError(type, seen = new Set()) {
  for (const base of checker.getBaseTypes(type) ?? []) {
    const symbol = base.getSymbol();
    if (!symbol || seen.has(symbol)) continue;
    seen.add(symbol);
    if (symbol.getName() === "Error" && fromLibrary(symbol)) return true;
    if (base.isClassOrInterface() && derivesFromError(base, seen)) return true;
  }
  return false;
}

function entryOf(symbol) {
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const flags = target.flags;
  if (flags & ts.SymbolFlags.Function) return { kind: "function" };
  if (flags & ts.SymbolFlags.Class) {
    const out = { kind: "class", fields: fields(checker.getDeclaredTypeOfSymbol(target), 0) };
    if (derivesFromError(checker.getDeclaredTypeOfSymbol(target))) out.error = true;
    return out;
  }
  if (flags & ts.SymbolFlags.Enum) return { kind: "enum", literals: target.exports ? [...target.exports.keys()].sort() : [] };
  if (flags & (ts.SymbolFlags.TypeAlias | ts.SymbolFlags.Interface)) {
    return describe(checker.getDeclaredTypeOfSymbol(target), "type");
  }
  if (flags & ts.SymbolFlags.Variable) return describe(checker.getTypeOfSymbol(target), "const");
  return null;
}

function main() {
  ts = createRequire(import.meta.url)(typescriptJs);
  program = ts.createProgram([entry], {
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: [],
  });
  checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  if (!source) throw new Error(`the compiler cannot open ${entry}`);
  const module = checker.getSymbolAtLocation(source);
  const found = {};
  for (const symbol of module ? checker.getExportsOfModule(module) : []) {
    const described = entryOf(symbol);
    if (described) found[symbol.getName()] = described;
  }
  return { exports: sorted(found) };
}

try {
  process.stdout.write(JSON.stringify(main()) + "\n");
} catch (error) {
  // one line for the user: what failed, never a stack
  process.stderr.write(`${String(error?.message ?? error).split("\n")[0]}\n`);
  process.exit(2);
}
