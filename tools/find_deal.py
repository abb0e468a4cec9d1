#!/usr/bin/env python3
"""Author tool: search seeded bot deals for one whose course matches a worked example, and write it
as an explicit scenario file (hands, talon, every action, and the engine's outcome as `expect`).

    python tools/find_deal.py wien-payment-example -o games/wien/scenarios/ex-payment.yaml

The outcome written is what the engine computes; compare it with the catalog's figures before
committing (the scenario then guards them). Searches are named Python functions below — nothing
typed on the command line is evaluated.
"""
from __future__ import annotations

import argparse
import io
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter import load
from interpreter.backends import compile_rules
from interpreter.bots.random_bot import RandomBot
from interpreter.bots.rule import RuleBot
from interpreter.engine import deal_cards
from interpreter.engine.state import State, initial_accounts
from interpreter.harness.scenario import actual_outcome


def _left_right(st):
    d = st.declarer
    return st.next(d), st.prev(d)


def wien_payment_example(st):
    """WIEN-EX-07..12: pot 20 (not compulsory), max 30; declarer 5, left 1, right 4; both went along."""
    if st.declarer is None or st.con is None or st.con.category not in ("a", "b"):
        return False
    left, right = _left_right(st)
    return (st.play.tricks_won[st.declarer], st.play.tricks_won[left], st.play.tricks_won[right]) == (5, 1, 4) \
        and len(st.playing) == 3 and not st.defence.invited


def wien_maskning_at(st):
    """WIEN-EX-04: both defenders play, the declarer leads a nine, the left defender holds 7, 10 and A of it."""
    if st.phase != "play" or st.declarer is None or len(st.playing) != 3 or len(st.trick) != 1:
        return False
    if st.con.defence != "ask":
        return False
    seat, card = st.trick[0]
    R = st.R
    if seat != st.declarer or R.cards[card].rank != "9" or st.to_act != st.next(st.declarer):
        return False
    suit = R.suit_of[card]
    held = sorted(R.cards[c].rank for c in range(len(R.cards)) if st.hands[st.to_act] >> c & 1 and R.suit_of[c] == suit)
    return held == sorted(["7", "10", "A"])


def category(*cats, **more):
    def test(st):
        if st.con is None or st.con.category not in cats:
            return False
        return all(getattr(st, k) == v if not callable(v) else v(st) for k, v in more.items())
    return test


def at_phase(name):
    return lambda st: st.phase == name


def cro(prefix):
    """A Croatian bidding example: A (dealer's left), B, C (dealer) call as given; bots finish the deal."""
    return dict(rules="croatian", dealer=2, prefix=prefix, test=lambda st: True, at=at_phase("contract"))


def simple(test, prefix=(), accounts=None, at=None):
    return dict(rules="simple", dealer=2, prefix=list(prefix), test=test, accounts=accounts or {}, at=at)


def fallen_defender(st):
    return any(s in st.playing and st.play.tricks_won[s] < 2 for s in st.defenders)


def cro_deal(rules, test):
    return dict(rules=rules, dealer=2, test=test)


def named(*names, **more):
    def test(st):
        if st.con is None or st.declarer is None or st.con.name not in names:
            return False
        return all(getattr(st, k) == v if not callable(v) else v(st) for k, v in more.items())
    return test


SEARCHES = {
    "wien-ex-02": dict(rules="wien", dealer=2, accounts={"pot": 10}, prefix=[("A", "one"), ("B", "pass"), ("C", "pass")],
                       test=lambda st: st.con is not None and st.con.name == "three"),
    "wien-ex-03": dict(rules="wien", dealer=2, accounts={"pot": 10}, prefix=[("A", "five without purchase"), ("B", "pass"), ("C", "pass")],
                       test=lambda st: True),
    "cro-number-kontra": cro_deal("croatian", named("three", "four", "five", kontra_level=lambda st: st.kontra.level >= 1)),
    "cro-game": cro_deal("croatian", named("two_g", "three_g", "four_g", "five_g")),
    "cro-bettel": cro_deal("croatian", named("bettel", "bettel_g")),
    "cro-sanac": cro_deal("croatian", named("sanac", "sanac_g")),
    "cro-plain-two-no-kontra": cro_deal("croatian", named("two", playing=lambda st: len(st.playing) == 1)),
    "cro-invitation": cro_deal("croatian", named("three", "four", "five", invited=True, kontra_level=0)),
    "serbian-deal": cro_deal("serbian", named("three", "four", "five", "two_g", "three_g", "four_g", "five_g")),
    "slovenian-deal": cro_deal("slovenian", named("three", "four", "five", "two_g", "three_g", "four_g", "five_g")),
    "wien-4-premium": dict(rules="wien-4", accounts={"pot": 10}, test=category("c")),
    "wien-trumpf-deal": dict(rules="wien-trumpf", accounts={"pot": 10}, test=category("a", playing=lambda st: len(st.playing) == 3)),
    "simple-ex-02": simple(lambda st: True, prefix=[("A", "one"), ("B", "two")]),
    "simple-made-defender-falls": simple(lambda st: st.con is not None and st.con.category == "number" and st.made
                                          and len(st.playing) == 3 and fallen_defender(st), accounts={"pot": 30}),
    "simple-declarer-fails": simple(lambda st: st.con is not None and st.declarer is not None and not st.made
                                     and len(st.playing) >= 2, accounts={"pot": 20}),
    "simple-both-stay-home": simple(lambda st: st.declarer is not None and len(st.playing) == 1, accounts={"pot": 40}),
    "simple-premium": simple(lambda st: st.con is not None and st.con.name == "premium", accounts={"pot": 20}),
    "simple-hand-games": simple(lambda st: st.con is not None and st.con.category == "hand"
                                and sum(1 for _, c in st.auction.calls if c.startswith("game") or c == "premium") >= 2),
    "simple-all-pass": simple(lambda st: st.all_passed, accounts={"pot": 50}),
    "simple-cap": simple(lambda st: st.con is not None and st.declarer is not None and not st.made, accounts={"pot": 90, "cup": 30}),
    "cro-ex-01": cro([("A", "two"), ("B", "three"), ("C", "four"), ("A", "pass"), ("B", "pass")]),
    "cro-ex-02": cro([("A", "pass"), ("B", "two"), ("C", "three"), ("B", "same"), ("C", "four"), ("B", "same"), ("C", "pass")]),
    "cro-ex-03": cro([("A", "two"), ("B", "three"), ("C", "four"), ("A", "pass"), ("B", "same"), ("C", "five"), ("B", "pass")]),
    "cro-ex-04": dict(cro([("A", "two"), ("B", "game"), ("C", "game"), ("B", "declare four_g"), ("C", "declare five_g")]), at=None),
    "cro-ex-05": cro([("A", "game"), ("B", "pass"), ("C", "pass")]),
    "cro-ex-06": dict(cro([("A", "two"), ("B", "bettel"), ("C", "pass")]), at=None),
    "cro-ex-07": dict(cro([("A", "two"), ("B", "bettel"), ("C", "sanac")]), at=None),
    "wien-payment-example": dict(rules="wien", accounts={"pot": 10}, test=wien_payment_example),
    "wien-maskning": dict(rules="wien", accounts={"pot": 10}, test=lambda st: True, at=wien_maskning_at),
    "wien-trick-value-one-stake": dict(rules="wien", test=category("a", "b", compulsory=True)),
    "wien-trick-value-max": dict(rules="wien", accounts={"pot": 40}, test=category("a", "b", playing=lambda st: len(st.playing) == 3)),
    "wien-hold": dict(rules="wien", accounts={"pot": 10}, test=lambda st: any(c == "hold" for _, c in st.auction.calls) and st.con is not None),
    "wien-spel-contest": dict(rules="wien", accounts={"pot": 10}, test=lambda st: bool(st.auction.reveals) and st.con is not None),
    "wien-after-purchase": dict(rules="wien", accounts={"pot": 10}, test=lambda st: st.after_purchase.made),
    "wien-invitation": dict(rules="wien", accounts={"pot": 10}, test=lambda st: st.defence.invited),
    "wien-both-stay-home": dict(rules="wien", accounts={"pot": 10}, test=lambda st: st.declarer is not None and len(st.playing) == 1),
    "wien-ausfechten": dict(rules="wien", accounts={"pot": 10}, test=lambda st: st.all_passed),
    "wien-premium-made": dict(rules="wien", accounts={"pot": 10}, test=category("c", made=True)),
    "wien-hearts": dict(rules="wien", accounts={"pot": 10}, test=lambda st: st.con is not None and st.con.name == "hearts"),
    "wien-negotiation": dict(rules="wien", accounts={"pot": 10}, test=lambda st: getattr(st, "negotiated", False)),
    "wien-4-deal": dict(rules="wien-4", accounts={"pot": 10}, test=category("a", "b")),
}


def search(name: str, tries: int, bots: str):
    spec = SEARCHES[name]
    rs = load(spec["rules"])
    R = compile_rules(rs, spec.get("options") or {})
    for seed in range(tries):
        dealer = spec.get("dealer", seed % R.n_seats)
        hands, talon = deal_cards(R, random.Random(f"find:{seed}"), dealer)
        accounts = initial_accounts(R, dealer)
        accounts.update(spec.get("accounts") or {})
        st = State(R, dealer, list(hands), list(talon), accounts=accounts)
        players = [(RuleBot if bots == "rule" else RandomBot)(f"find:{seed}:{s}") for s in range(R.n_seats)]
        mark = None
        ok = True
        for who, text in spec.get("prefix", []):
            from interpreter.engine.text import parse
            if st.current_player() != ord(who) - ord("A"):
                ok = False
                break
            try:
                st.apply(parse(st, text))
            except ValueError:
                ok = False
                break
        if not ok:
            continue
        while not st.is_over():
            if mark is None and spec.get("at") and spec["at"](st):
                mark = (len(st.log), sorted(st.action_text(a) for a in st.legal_actions()))
            st.apply(players[st.current_player()].choose(st))
        if spec["test"](st) and (mark is not None or not spec.get("at")):
            st._mark = mark
            return rs, R, spec, st, hands, talon, dealer
    return None


def search_session(name: str, tries: int, bots: str):
    """A whole session of `deals` deals played by bots from seat 0 dealing first, kept if `test(session)`."""
    from interpreter.engine.session import Session

    spec = SESSIONS[name]
    rs = load(spec["rules"])
    for seed in range(tries):
        sess = Session(rs, spec.get("options") or {}, dealer=0)
        played = []
        for d in range(spec["deals"]):
            st = sess.start(rng=random.Random(f"session:{seed}:{d}"))
            start = (list(st.hands), list(st.talon), st.dealer)
            players = [(RuleBot if bots == "rule" else RandomBot)(f"session:{seed}:{d}:{s}") for s in range(sess.R.n_seats)]
            while not st.is_over():
                st.apply(players[st.current_player()].choose(st))
            sess.finish(st)
            played.append((st, start))
            if sess.ended:
                break
        if spec["test"](sess, played):
            return rs, sess, played, spec
    return None


def write_session(found, out):
    from ruamel.yaml import YAML
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    rs, sess, played, spec = found
    R = sess.R
    names = [chr(ord("A") + i) for i in range(R.n_seats)]

    def flow(items):
        seq = CommentedSeq(items)
        seq.fa.set_flow_style()
        return seq

    doc = CommentedMap()
    doc["rules"] = spec["rules"]
    doc["seats"] = flow(names)
    doc["dealer"] = names[0]
    deals = CommentedSeq()
    for st, (hands, talon, _dealer) in played:
        deal = CommentedMap()
        hm = CommentedMap()
        for s in range(R.n_seats):
            if hands[s]:
                hm[names[s]] = flow(sorted(rs.codes(hands[s]), key=lambda c: (R.suit_of[rs.card_index[c]], R.order_of[rs.card_index[c]])))
        deal["hands"] = hm
        deal["talon"] = flow([R.codes[c] for c in talon])
        acts = CommentedSeq()
        for seat, a in st.log:
            m = CommentedMap()
            m[names[seat]] = st.action_text(a)
            m.fa.set_flow_style()
            acts.append(m)
        deal["actions"] = acts
        deal["expect"] = actual_outcome(st, names)
        deals.append(deal)
    doc["deals"] = deals
    if sess.ended:
        doc["expect_final"] = {names[k]: v for k, v in sess.close().items()}
    yaml = YAML()
    yaml.width = 200
    buf = io.StringIO()
    yaml.dump(doc, buf)
    Path(out).write_text(buf.getvalue(), encoding="utf-8") if out else sys.stdout.write(buf.getvalue())


def _pots(played):
    return [st.after_stake_accounts.get("pot", 0) for st, _ in played]


SESSIONS = {
    # the pot carries over: some deal starts with more than the dealer's stake in it
    "wien-session": dict(rules="wien", deals=12, test=lambda sess, played: sum(1 for p in _pots(played) if p > 10) >= 4
                         and any(st.all_passed for st, _ in played) and any(st.defence.compulsory for st, _ in played)),
    "simple-session": dict(rules="simple", deals=12, test=lambda sess, played: sum(1 for p in _pots(played) if p > 10) >= 4
                           and any(st.all_passed for st, _ in played)),
    # refas from an all-pass, and a declarer column crossing zero (under the hat)
    "croatian-session": dict(rules="croatian", deals=14, test=lambda sess, played:
                             any(st.all_passed and any(st.accounts["refa"]) for st, _ in played)
                             and any(any(v > 0 for v in st.accounts["score"]) for st, _ in played)),
}


def write(found, out):
    from ruamel.yaml import YAML
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    rs, R, spec, st, hands, talon, dealer = found
    names = [chr(ord("A") + i) for i in range(R.n_seats)]
    doc = CommentedMap()
    doc["rules"] = spec["rules"]
    if spec.get("options"):
        doc["options"] = dict(spec["options"])
    doc["seats"] = CommentedSeq(names)
    doc["seats"].fa.set_flow_style()
    doc["dealer"] = names[dealer]
    if spec.get("accounts"):
        doc["accounts"] = dict(spec["accounts"])
    deal = CommentedMap()
    hm = CommentedMap()
    for s in range(R.n_seats):
        seq = CommentedSeq(sorted(rs.codes(hands[s]), key=lambda c: (R.suit_of[rs.card_index[c]], R.order_of[rs.card_index[c]])))
        seq.fa.set_flow_style()
        hm[names[s]] = seq
    deal["hands"] = hm
    tl = CommentedSeq([R.codes[c] for c in talon])
    tl.fa.set_flow_style()
    deal["talon"] = tl
    acts = CommentedSeq()
    mark = getattr(st, "_mark", None)
    for i, (seat, a) in enumerate(st.log):
        if mark is not None and i == mark[0]:
            chk = CommentedMap()
            lst = CommentedSeq(mark[1])
            lst.fa.set_flow_style()
            chk["legal"] = lst
            chk.fa.set_flow_style()
            acts.append(chk)
        m = CommentedMap()
        m[names[seat]] = st.action_text(a)
        m.fa.set_flow_style()
        acts.append(m)
    deal["actions"] = acts
    deal["expect"] = actual_outcome(st, names)
    doc["deals"] = [deal]
    yaml = YAML()
    yaml.width = 200
    buf = io.StringIO()
    yaml.dump(doc, buf)
    text = buf.getvalue()
    if out:
        Path(out).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("search", choices=sorted(SEARCHES) + sorted(SESSIONS))
    ap.add_argument("--tries", type=int, default=20000)
    ap.add_argument("--bots", choices=["rule", "random", "both"], default="both")
    ap.add_argument("-o", "--output")
    a = ap.parse_args()
    found = None
    if a.search in SESSIONS:
        for kind in (["rule", "random"] if a.bots == "both" else [a.bots]):
            found = search_session(a.search, a.tries, kind)
            if found:
                write_session(found, a.output)
                return 0
        print(f"no session found in {a.tries} tries", file=sys.stderr)
        return 1
    for kind in (["rule", "random"] if a.bots == "both" else [a.bots]):
        found = search(a.search, a.tries, kind)
        if found:
            break
    if not found:
        print(f"no deal found in {a.tries} tries", file=sys.stderr)
        return 1
    write(found, a.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
