#!/usr/bin/env python3
"""Write docs/vocabulary.md, the reference of every mechanism, section and field of the rules
document and of every name an expression may use.

It is generated, Ludii-style, from the two places that define the vocabulary:

- grammar/stichwort.schema.json (written by tools/build_schema.py): each section and field with
  its description, type, allowed values and an example;
- interpreter/model/vocabulary.py: the built-in names, functions and comprehension forms of the
  expression language, with their types and doc lines.

    python tools/render_docs.py          # rewrite docs/vocabulary.md
    python tools/render_docs.py --check  # exit 1 if docs/vocabulary.md is out of date
    python tools/render_docs.py --stdout # print it instead
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_PATH = ROOT / "grammar" / "stichwort.schema.json"
OUT = ROOT / "docs" / "vocabulary.md"

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# Fields that carry no description of their own in the schema mean the same everywhere.
GENERIC = {
    "doc": "Words for the booklet (`stichwort explain`); never enforced.",
    "title": "The name shown in the booklet and the score sheet.",
    "rule": "Catalog rule ids this part implements (for people and for the rule-coverage tests).",
    "rule_ids": "Catalog rule ids this part implements.",
    "word": "The word said at the table.",
    "aka": "Other names for the same thing.",
    "params": "The parameter names of a function.",
    "body": "The expression; it may use the parameters.",
}

TYPE_WORDS = {"integer": "whole number", "string": "text", "boolean": "`true`/`false`", "null": "`none`",
              "object": "section", "array": "list", "number": "number"}


def load_schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def anchor(path: str) -> str:
    """The GitHub-style anchor of a heading '`path`'."""
    return re.sub(r"[^\w\- ]", "", path.lower()).replace(" ", "-")


def esc(text: str) -> str:
    """Text for one markdown table cell."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def code(text: str) -> str:
    text = str(text)
    fence = "``" if "`" in text else "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}".replace("|", "\\|")


class Renderer:
    def __init__(self, schema: dict):
        self.schema = schema
        self.defs = schema.get("$defs", {})
        self.rendered: dict[str, str] = {}   # json of a subschema → path where it is described
        self.sections: list[str] = []         # output blocks of nested parts, in order

    # ---- types ---------------------------------------------------------------------------------
    def resolve(self, node: dict) -> tuple[dict, str | None]:
        ref = node.get("$ref", "")
        if ref.startswith("#/$defs/"):
            name = ref.rsplit("/", 1)[-1]
            return self.defs.get(name, {}), name
        return node, None

    def is_object(self, node: dict) -> bool:
        node, _ = self.resolve(node)
        return node.get("type") == "object" and "properties" in node

    def is_collection(self, node: dict) -> bool:
        node, _ = self.resolve(node)
        return node.get("type") == "object" and "propertyNames" in node

    def type_of(self, node: dict, path: str) -> str:
        """Words for the values a field takes; nested sections get their own part and a link."""
        target, ref = self.resolve(node)
        if path == "let":
            return "name → [expression](#expressions), or a function `let f(a, b) = …`"
        if ref == "expr":
            return "[expression](#expressions)"
        if ref == "num":
            return "number (an integer or a constant such as `1/3`)"
        if ref == "name":
            return "name"
        if ref == "names":
            return "list of names"
        node = target
        if "enum" in node:
            return "one of " + ", ".join(code(v if v is not None else "none") for v in node["enum"])
        for key in ("oneOf", "anyOf"):
            if key in node:
                return " or ".join(self.type_of(b, path) for b in node[key])
        t = node.get("type")
        if t == "object" and "properties" in node:
            return f"section `{{ … }}`, see [{code(path)}](#{anchor(path)})"
        if t == "object" and "propertyNames" in node:
            item = node.get("additionalProperties", {})
            if self.is_object(item):
                return f"named items, see [{code(path)}](#{anchor(path)})"
            if self.is_collection(item):
                inner = self.type_of(item.get("additionalProperties", {}), path + ".*")
                return f"named groups of (name → {inner})"
            return f"name → {self.type_of(item, path + '.*')}"
        if t == "array":
            item = node.get("items", {})
            if self.is_object(item):
                return f"table of rows, see [{code(path)}](#{anchor(path)})"
            if any(self.is_object(b) for b in item.get("oneOf", []) + item.get("anyOf", [])):
                return "list; each entry " + self.type_of(item, path)
            return "list of " + self.type_of(item, path + "[]")
        if isinstance(t, list):
            return " or ".join(TYPE_WORDS.get(x, x) for x in t)
        words = TYPE_WORDS.get(t, str(t))
        lo, hi = node.get("minimum"), node.get("maximum")
        if t == "integer" and (lo is not None or hi is not None):
            if lo is not None and hi is not None and hi - lo <= 100:
                words += f" {lo}‥{hi}"
            elif lo is not None and lo >= 0:
                words += f" ≥ {lo}"
        return words

    # ---- examples ------------------------------------------------------------------------------
    def example(self, key: str, node: dict) -> str | None:
        target, ref = self.resolve(node)
        examples = node.get("examples") or (target.get("examples") if ref is None else None)
        if not examples:
            return None
        ex = str(examples[0])
        statement_start = re.match(r"^(table|let|extends|remove)\b", ex) or ex.startswith("|")
        if statement_start or re.match(rf"^{re.escape(key)}\b", ex):
            return ex
        if target.get("type") == "string" and "pattern" not in target and ref is None and not ex.startswith('"'):
            ex = json.dumps(ex, ensure_ascii=False)
        return f"{key} = {ex}"

    def description(self, key: str, node: dict) -> str:
        target, _ = self.resolve(node)
        text = node.get("description") or (target.get("description") if "$ref" not in node else None)
        if not text:
            text = GENERIC.get(key)
        if not text and "enum" in target:
            text = target.get("description")
        return text or "(no description in the schema)"

    # ---- parts ---------------------------------------------------------------------------------
    def fields_table(self, obj: dict, path: str) -> list[str]:
        props = obj.get("properties", {})
        required = set(obj.get("required", []))
        lines = ["| field | takes | description | example |", "|---|---|---|---|"]
        nested = []
        for key, sub in props.items():
            here = f"{path}.{key}" if path else key
            req = " **(required)**" if key in required else ""
            ex = self.example(key, sub)
            lines.append(f"| {code(key)}{req} | {esc(self.type_of(sub, here))} | {esc(self.description(key, sub))} | "
                         f"{code(ex) if ex else ''} |")
            nested.append((key, sub, here))
        for _key, sub, here in nested:
            self.nested(sub, here)
        return lines

    def nested(self, sub: dict, path: str) -> None:
        """Describe a nested section, item collection or row table in its own part (once)."""
        node, _ = self.resolve(sub)
        for key in ("oneOf", "anyOf"):
            for b in node.get(key, []):
                if self.is_object(b):
                    self.part(b, path, "Written as an inline map `{ … }`.")
                elif b.get("type") == "array" or self.is_collection(b):
                    self.nested(b, path)
        if node.get("type") == "array" and not self.is_object(node.get("items", {})):
            self.nested(node.get("items", {}), path)
        if self.is_object(node):
            self.part(node, path, f"Written `{path.rsplit('.', 1)[-1]} {{ … }}` inside its parent.")
        elif self.is_collection(node):
            item = node.get("additionalProperties", {})
            if self.is_object(item):
                last = path.rsplit(".", 1)[-1]
                self.part(item, path, f"Each item is written `{last} NAME {{ … }}`, or as a row of `table {last} {{ | {last} | … | }}`.",
                          parent=node)
        elif node.get("type") == "array" and self.is_object(node.get("items", {})):
            last = path.rsplit(".", 1)[-1]
            self.part(node["items"], path, f"Written as a table: `{last} = table {{ | column | … | }}`; each row is one entry, "
                                           "the header names the fields below, `-` leaves a cell out.", parent=node)

    def part(self, obj: dict, path: str, how: str, parent: dict | None = None) -> None:
        key = json.dumps(obj, sort_keys=True)
        if key in self.rendered and self.rendered[key] != path:
            first = self.rendered[key]
            self.sections.append("\n".join([f"### {code(path)}", "",
                                            f"The same fields as [{code(first)}](#{anchor(first)}).", ""]))
            return
        self.rendered[key] = path
        block = [f"### {code(path)}", ""]
        desc = (parent or {}).get("description") or obj.get("description")
        if desc:
            block += [desc, ""]
        block += [how, ""]
        ex = (parent or {}).get("examples") or obj.get("examples")
        if ex:
            block += ["Example: " + code(ex[0]), ""]
        index = len(self.sections)
        self.sections.append("")  # reserve the place: this part comes before the parts it links to
        block += self.fields_table(obj, path) + [""]
        self.sections[index] = "\n".join(block)

    # ---- the whole document --------------------------------------------------------------------
    def top_level(self) -> list[str]:
        out = []
        props = self.schema["properties"]
        required = set(self.schema.get("required", []))
        out += ["## Sections of a rule file", "",
                "Every top-level key of the rules document, in the order a rule file usually gives them. "
                "**Required** keys must be present once the `extends` chain is merged.", "",
                "| key | written | takes | description |", "|---|---|---|---|"]
        for key, sub in props.items():
            req = " **(required)**" if key in required else ""
            out.append(f"| [{code(key)}](#{anchor(key)}){req} | {code(self.spelling(key, sub))} | "
                       f"{esc(self.type_of(sub, key))} | {esc(self.description(key, sub))} |")
        out.append("")
        for key, sub in props.items():
            out += self.top_part(key, sub, key in required)
        return out

    def spelling(self, key: str, sub: dict) -> str:
        node, _ = self.resolve(sub)
        if key == "extends":
            return 'extends "base"'
        if key == "remove":
            return "remove a.b"
        if key == "let":
            return "let NAME = expr"
        if self.is_object(node):
            return f"{key} {{ … }}"
        if self.is_collection(node):
            item = node.get("additionalProperties", {})
            if self.is_object(item):
                return f"{key} NAME {{ … }}"
            if self.is_collection(item):
                return f"{key} {{ GROUP {{ NAME = … }} }}"
            return f"{key} {{ NAME = … }}"
        if node.get("type") == "array" and self.is_object(node.get("items", {})):
            return f"{key} = table {{ … }}"
        if node.get("type") == "array":
            return f"{key} = [ … ]"
        return f"{key} = …"

    def top_part(self, key: str, sub: dict, required: bool) -> list[str]:
        self.sections = []
        node, _ = self.resolve(sub)
        out = [f"## {code(key)}", ""]
        out += [self.description(key, sub) + (" Required." if required else ""), ""]
        out += [f"Written: {code(self.spelling(key, sub))}", ""]
        ex = self.example(key, sub)
        if ex:
            out += ["```stw", ex, "```", ""]
        if self.is_object(node):
            self.rendered[json.dumps(node, sort_keys=True)] = key
            out += self.fields_table(node, key) + [""]
        elif self.is_collection(node):
            item = node.get("additionalProperties", {})
            if self.is_object(item):
                self.rendered[json.dumps(item, sort_keys=True)] = key
                out += [f"Each item is written `{key} NAME {{ … }}`, or as a row of `table {key} {{ | {key} | … | }}`; "
                        f"the item's fields:", ""]
                out += self.fields_table(item, key) + [""]
            elif "oneOf" in item:
                out += ["Each entry is an expression, or a function with parameters. In YAML and JSON a "
                        "function is written as a map:", ""]
                for b in item["oneOf"]:
                    if self.is_object(b):
                        out += self.fields_table(b, key) + [""]
            else:
                out += [f"Each entry takes {self.type_of(item, key + '.*')}.", ""]
        elif node.get("type") == "array" and self.is_object(node.get("items", {})):
            out += self.fields_table(node["items"], key) + [""]
        out += [s for s in self.sections if s]
        return out


def expressions_part() -> list[str]:
    from interpreter.checks import typecheck
    from interpreter.model import vocabulary

    entries = vocabulary.entries
    words = getattr(typecheck, "_WORD", {})
    pending_note = ("Entries marked **pending** are declared (rule files in development use them) but the engine "
                    "does not implement them yet: `validate` refuses a file that uses one (E410), at each use.")
    out = ["## Expressions", "",
           "Expression fields (marked *expression* above) hold a small total expression: arithmetic on exact "
           "numbers, comparisons, `and`/`or`/`not`, `if … then … else …`, calls of the functions below and "
           "comprehensions such as `sum(tricks(s) for s in defenders)`. The language itself is described in "
           "[language.md](language.md#expressions); this part lists the names. Generated from the vocabulary "
           "registry, `interpreter/model/vocabulary.py`; the engine's implementations are in "
           "`interpreter/engine/builtins.py`, and a test keeps the two in step.", "", pending_note, ""]
    out += ["### Types", "", "| type | a value that is |", "|---|---|"]
    for t, w in words.items():
        out.append(f"| {code(t)} | {esc(w)} |")
    out.append("")

    def mark(e) -> str:
        return " **pending**" if e.pending else ""

    out += ["### Built-in values", "", "| name | type | meaning | example |", "|---|---|---|---|"]
    for name, e in sorted(entries("value").items()):
        out.append(f"| {code(name)}{mark(e)} | {code(e.type)} | {esc(e.doc)} | {code(e.example)} |")
    out.append("")
    out += ["### Functions", "", "`*T` means any number of arguments of type T.", "",
            "| call | result | meaning | example |", "|---|---|---|---|"]
    for name, e in sorted(entries("function").items()):
        out.append(f"| {code(name + '(' + ', '.join(e.params) + ')')}{mark(e)} | {code(e.type)} | {esc(e.doc)} "
                   f"| {code(e.example)} |")
    out.append("")
    out += ["### Comprehensions", "",
            "Written `F(body for x in set)` or `F(body for x in set if condition)`; `x` is bound in the body and "
            "the condition. For `count` and `set` the body itself is the test: a member counts when both the "
            "body and the `if` condition are true.", "",
            "| form | result | meaning | example |", "|---|---|---|---|"]
    for name, e in entries("comprehension").items():
        out.append(f"| {code(name + '(… for x in …)')} | {code(e.type)} | {esc(e.doc)} | {code(e.example)} |")
    out.append("")
    out += ["### Phases", "", "The words of `procedure`, each a phase of one deal configured in its own section.", "",
            "| phase | what it does | example |", "|---|---|---|"]
    for name, e in entries("phase").items():
        out.append(f"| {code(name)}{mark(e)} | {esc(e.doc)} | {code(e.example)} |")
    out.append("")
    out += ["### Play obligations", "",
            "The filters of an `obligations` chain, applied in order to the hand of the seat to play.", "",
            "| obligation | what it requires | example |", "|---|---|---|"]
    for name, e in entries("obligation").items():
        out.append(f"| {code(name)}{mark(e)} | {esc(e.doc)} | {code(e.example)} |")
    out.append("")
    out += ["### Fields the engine does not run yet", "",
            "The schema describes these fields so that rule files in development can say them, but the engine "
            "cannot play them yet; `validate` refuses each use (E410). `*` stands for a name the file chooses.", "",
            "| field | meaning | example |", "|---|---|---|"]
    for name, e in entries("field").items():
        out.append(f"| {code(name)} **pending** | {esc(e.doc)} | {code(e.example)} |")
    out.append("")
    out += ["### Forms the engine does not run yet", "",
            "Fields whose plain form (a name) the engine runs, and whose other form it does not run yet; `validate` "
            "refuses that form at each use (E410). `#` stands for a position in a list.", "",
            "| field | the form | example |", "|---|---|---|"]
    for name, e in entries("form").items():
        out.append(f"| {code(name)} **pending** | {esc(e.doc)} | {code(e.example)} |")
    out.append("")
    out += ["### Operators on more types", "",
            "Arithmetic takes numbers; these operators also take the operand types shown (where one is marked "
            "pending, `validate` refuses it there, E410, until the engine runs it).", "",
            "| operator | operands | result | meaning | example |", "|---|---|---|---|---|"]
    for name, e in entries("operator").items():
        out.append(f"| {code(name)}{mark(e)} | {code(' and '.join(e.params))} | {code(e.type)} | {esc(e.doc)} "
                   f"| {code(e.example)} |")
    out.append("")
    out += ["### Names a rule file adds", "",
            "Besides the built-ins, an expression may use every name the rule file declares "
            "(see `interpreter/checks/expressions.py`):", "",
            "| declared as | usable as | type |", "|---|---|---|",
            "| a suit in `deck.suits` | the suit | `suit` |",
            "| a card (rank + suit, or a suit's `cards`) | the card | `card` |",
            "| a group in `deck.group` | its cards | `cards` |",
            "| a contract | the contract (`.category`, `.rank`, `.level`, … and its `props`) | `contract` |",
            "| a call, and the hold word (`auction.hold.call`) | the call | `call` |",
            "| a category, a talon procedure | its name | `name` |",
            "| a `ranking` | the card order, for `in_suit(suit, NAME)` | `ranking` |",
            "| a `choice` | the decision, for `chose(NAME)` | `choice` |",
            "| an option of a `choice` | its name, to compare with `chose(…)` | `name` |",
            "| a step of a `ladder` (`bid_18`) | the call | `call` |",
            "| a strain of a `ladder` that is not a suit (`NT`) | its name | `name` |",
            "| a figure | the figure | `figure` |",
            "| an account with `per = game` | its value | `num` |",
            "| any other account | the account, for `account(name, s…)` | `account` |",
            "| a role in `seating.roles` | the seat | `seat` |",
            "| an option | its value | `num`, `bool` or `name`, by its default |",
            "| `let NAME = …` | the value | the body's type |",
            "| `let NAME(a, b) = …` | a function | the body's type |",
            "| — | `s`, `t` | `seat` (bound by a pay row's `each`, or a comprehension) |",
            "",
            "A name declared twice with different types (a suit that is also a call, say) has type `any`.", ""]
    return out


def enum_words(schema: dict) -> list[str]:
    from interpreter.model.vocabulary import VALUES

    found: set[str] = set()
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if "enum" in node:
                found.update(str(v) for v in node["enum"] if isinstance(v, str))
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return sorted(w for w in found if w not in VALUES)


def render(schema: dict | None = None) -> str:
    schema = schema if schema is not None else load_schema()
    r = Renderer(schema)
    out = ["# stichwort vocabulary", "",
           "<!-- Generated by tools/render_docs.py from grammar/stichwort.schema.json and interpreter/model/vocabulary.py. "
           "Do not edit by hand: run `python tools/render_docs.py`. -->", "",
           schema.get("description", ""), "",
           "Every section and field a rule file may use, with what it takes, what it means and an example, "
           "followed by every name and function an expression may use. How to write these is explained in "
           "[language.md](language.md).", "",
           "In the *takes* column, *name* is a word such as `five_wp` or `10H`; *expression* is a formula "
           "(see [Expressions](#expressions)); *number* is exact (integers, or constants such as `1/3`).", ""]
    out += r.top_level()
    out += expressions_part()
    out += ["### Words of the vocabulary", "",
            "Every allowed value of an enumerated field is also a name in expressions (of type `name`), so that "
            "`contract.defence == ask` or `contract.side == called` type-check:", "",
            ", ".join(code(w) for w in enum_words(schema)), ""]
    text = "\n".join(out)
    text = re.sub(r"\n{3,}", "\n\n", text)
    return text.rstrip("\n") + "\n"


def main(argv) -> int:
    text = render()
    if "--stdout" in argv:
        sys.stdout.write(text)
        return 0
    if "--check" in argv:
        current = OUT.read_text(encoding="utf-8") if OUT.exists() else ""
        if current != text:
            print(f"{OUT.relative_to(ROOT)} is out of date: run python tools/render_docs.py")
            return 1
        print(f"{OUT.relative_to(ROOT)} is up to date")
        return 0
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
