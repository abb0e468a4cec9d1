"""The words of the table: one place for every word a rule file gives its players to say or read.

A rule file's `words { … }` section holds them all: the words of actions (`bid`, `pass`, `hold`,
`go`, `stay`, …, keys listed in ACTION_WORDS), the spoken name of any call or contract it
declares (`five_wp = "five without purchase"`; an entry speaks for the call and the contract of
that name alike) and of each kontra level (`kontra = "double"`). The engine's action texts, `play`, `explain` and
scenario parsing all read them from here.

Older spellings keep working as defaults under the section: a call's `word` (for the call alone,
not a contract of the same name), the defence's `go` and `stay`, and the hold call's name
(`auction.hold.call`). An entry of `words` wins over them.
Words in other languages (`names`, `deck.names`) are translations for display, not the table's
own words.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from interpreter.model.family import choice_options

# The key of each action word and its default: what `play` shows and what may be typed.
ACTION_WORDS: dict[str, str] = {
    "bid": "bid", "pass": "pass", "hold": "hold", "play": "play", "discard": "discard", "declare": "declare",
    "trump": "trump", "go": "go along", "stay": "stay home", "invite": "invite", "no_invite": "no invite",
    "after_purchase": "after-purchase", "decline": "decline", "accept": "accept", "refuse": "refuse",
    "offer": "offer", "call": "call", "fourth": "the fourth", "done": "done", "knock": "knock", "cut": "cut",
    "take": "take", "give_up": "give up", "play_on": "play on", "pass_card": "pass",
}

# What each action word is for, as the schema and docs/vocabulary.md say it ("The word …").
ACTION_DOCS: dict[str, str] = {
    "bid": "said before a call: `bid five`", "pass": "for passing in the auction or a kontra round",
    "hold": "for taking over the current bid", "play": "said before a card: `play KH`",
    "discard": "said before the cards discarded", "declare": "for naming the contract or declaring a figure",
    "trump": "for naming the trump suit", "go": "of a defender who plays along", "stay": "of a defender who stays out",
    "invite": "for inviting the other defender", "no_invite": "for not inviting",
    "after_purchase": "for taking the after-purchase", "decline": "for declining the after-purchase",
    "accept": "for accepting an offered split of the tricks", "refuse": "for refusing the split",
    "offer": "for offering a split", "call": "for calling a partner's card",
    "fourth": "for calling the fourth card of the group", "done": "for ending one's declarations",
    "knock": "for knocking", "cut": "for cutting instead", "take": "for taking a packet",
    "give_up": "for giving up after the talon", "play_on": "for playing on after the talon",
    "pass_card": "said before a card passed to another seat: `pass QS`",
}


@dataclass(frozen=True)
class TableWords:
    actions: dict[str, str]                 # action key → word
    fallback: dict[str, str]                # the action words the older spellings give (accepted too)
    calls: dict[str, str] = field(default_factory=dict)       # call name → spoken word
    contracts: dict[str, str] = field(default_factory=dict)   # contract name → spoken word
    levels: dict[str, str] = field(default_factory=dict)      # kontra level name → spoken word

    def of(self, name: str) -> str:
        """The spoken word of a call (its name when the file gives none)."""
        return self.calls.get(name, name)

    def contract(self, name: str) -> str:
        """The spoken word of a contract (its name when the file gives none)."""
        return self.contracts.get(name, name)

    def level(self, name: str) -> str:
        """The spoken word of a kontra level (its name when the file gives none)."""
        return self.levels.get(name, name)


def _section(doc: dict) -> dict[str, str]:
    w = doc.get("words")
    return {str(k): str(v) for k, v in w.items()} if isinstance(w, dict) else {}


def _part(doc: dict, key: str) -> dict:
    value = doc.get(key)
    return value if isinstance(value, dict) else {}


def older_spellings(doc: dict) -> dict[str, str]:
    """The action words given outside `words` (the hold call, the defence's go/stay) over the defaults."""
    out = dict(ACTION_WORDS)
    hold = _part(_part(doc, "auction"), "hold")
    if isinstance(hold.get("call"), str):
        out["hold"] = hold["call"]
    defence = _part(doc, "defence")
    for key in ("go", "stay"):
        if isinstance(defence.get(key), str) and defence[key]:
            out[key] = defence[key]
    return out


def table_words(doc: dict) -> TableWords:
    section = _section(doc)
    fallback = older_spellings(doc)
    actions = {k: section.get(k, v) for k, v in fallback.items()}
    calls, contracts = _part(doc, "call"), _part(doc, "contract")
    call_words: dict[str, str] = {}
    for name, c in calls.items():   # a call's own `word` (the older spelling) speaks for the call alone
        if isinstance(c, dict) and isinstance(c.get("word"), str) and c["word"]:
            call_words[name] = c["word"]
    call_words.update({n: section[n] for n in calls if n in section})
    call_words.update({n: section[n] for n in doubles(doc) if n in section})
    contract_words = {n: section[n] for n in contracts if n in section}
    level_words = {n: section[n] for n in kontra_levels(doc) if n in section and n not in ACTION_WORDS}
    return TableWords(actions, fallback, call_words, contract_words, level_words)


def doubles(doc: dict) -> list[str]:
    """The calls made on the highest bid (`auction.doubles`), spoken as their names unless `words` gives a word."""
    names = _part(doc, "auction").get("doubles")
    return [str(n) for n in names] if isinstance(names, (list, tuple)) else []


def kontra_levels(doc: dict) -> list[str]:
    """The names of the kontra levels (`kontra.levels`, `announce.kontra.levels`; `kontra` where a chain
    has none): each is spoken as its name unless `words` gives it a word (`words { kontra = "double" }`)."""
    out: dict[str, None] = {}
    announce = _part(doc, "announce")
    for chain in (_part(doc, "kontra") if "kontra" in doc else None,
                  _part(announce, "kontra") if "kontra" in announce else None):
        if chain is not None:
            levels = chain.get("levels")
            out.update(dict.fromkeys(str(x) for x in (levels if isinstance(levels, (list, tuple)) else ["kontra"])))
    return list(out)


def declared_names(doc: dict) -> set[str]:
    """The names a `words` entry may give a word to, besides the action keys."""
    out: set[str] = set()
    for part in ("call", "contract"):
        if isinstance(doc.get(part), dict):
            out.update(doc[part])
    for opts in choice_options(doc).values():      # a decision's options are said too
        out.update(opts)
    out.update(doubles(doc))                        # and the calls on the bid
    return out
