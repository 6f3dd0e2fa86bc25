"""Text renderings of a view (what ``render_mode="ansi"`` returns and ``"human"`` prints).

They read a ``state.view(seat)`` dict only, so rendering a seat's view shows exactly what
that seat may see; ``seat=None`` is the spectator's (public) view.
"""

from __future__ import annotations

from typing import Any

from ..core import GAMES, title


def _seat_name(seat: int | None, me: int | None) -> str:
    if seat is None:
        return "-"
    return f"p{seat}" + (" (you)" if seat == me else "")


def render_red_rising(v: dict[str, Any], last: str | None = None) -> str:
    me = v.get("you")
    lines = [
        f"Red Rising - {len(v['players'])} players, phase {v['phase']}"
        + (", end triggered" if v["end_triggered"] else "")
        + f", deck {v['deck_size']}, banished {len(v['banished'])}"
        + (f", neutral Influence {v['neutral_influence']}" if v["neutral_influence"] else "")
    ]
    for p in v["players"]:
        mark = ">" if v.get("current_turn") == p["seat"] else " "
        lines.append(
            f"{mark} {_seat_name(p['seat'], me):<9} {p['house']:<8} hand {p['hand_size']:>2}  "
            f"fleet {p['fleet']:>2}  helium {p['helium']:>2}  influence {p['influence']:>2}"
            + ("  SOVEREIGN" if p["sovereign"] else "")
        )
        if "hand" in p:
            lines.append("            hand: " + ", ".join(_rr_card(c) for c in p["hand"]))
    for name, pile in v["locations"].items():
        shown = ", ".join(_rr_card(c) for c in pile) if pile else "(empty)"
        lines.append(f"  {name:<9} {shown}   <- top")
    d = v.get("decision")
    if d is not None:
        line = f"  to decide: p{d['player']} {d['kind']}"
        if "options" in d:
            opts = d["options"]
            line += ": " + ", ".join(opts[:12]) + (f" ... (+{len(opts) - 12})" if len(opts) > 12 else "")
        lines.append(line)
    if v.get("scores"):
        lines.append(
            "  scores: "
            + ", ".join(f"p{i} {s['total']}" for i, s in enumerate(v["scores"]))
            + f"; winners {v.get('winners')}"
        )
    if last:
        lines.append(f"  last: {last}")
    return "\n".join(lines)


def _rr_card(c: dict) -> str:
    if "card" not in c:
        return "[face down]"
    s = f"{c['name']} ({c['color']} {c['value']})"
    return s + " [face down]" if c.get("face_down") else s


def render_red_north(v: dict[str, Any], last: str | None = None) -> str:
    me = v.get("player")
    lines = [
        f"Red North - {v['players']} players, round {v['round']} ({v['round_name']}), phase {v['phase']}, "
        f"deck {v['deck_size']}, first player p{v['first_player']}"
        + (f", tie breaker p{v['tie_breaker']}" if v.get("tie_breaker") is not None else "")
    ]
    lines.append(
        "  outposts: "
        + ", ".join(
            f"{o['colour']} {o['name']} ({'free' if o['controller'] is None else 'p' + str(o['controller'])})"
            for o in v["outposts"]
        )
    )
    if v["muster"]:
        lines.append("  muster: " + "; ".join(f"{g['group']}: {', '.join(g['cards'])}" for g in v["muster"]))
    for s in v["seats"]:
        mark = ">" if v.get("to_act") == s["seat"] else " "
        party = (
            " ".join(
                (sl["card"] if sl["face_up"] else f"({sl['card']})" if sl["card"] else "??")
                + ("*" * sl["glory"])
                + ("^" if sl["champion"] else "")
                for sl in s["party"]
            )
            or "-"
        )
        lines.append(
            f"{mark} {_seat_name(s['seat'], me):<9} vp {s['vp']:>2}  glory {s['glory']}  hand {s['hand_size']:>2}"
            + (f"  god {s['god']}" + (" (invoked)" if s["invoked"] else "") if s["god"] else "")
            + ("  passed" if s["passed"] else "")
            + f"  party: {party}"
        )
        if "hand" in s:
            lines.append("            hand: " + ", ".join(s["hand"]))
    if v.get("pending"):
        lines.append(f"  pending: {v['pending']}")
    if v.get("result"):
        r = v["result"]
        lines.append(f"  winner p{r['winner']} ({r['decided_by']}), vp {r['vp']}")
    if last:
        lines.append(f"  last: {last}")
    return "\n".join(lines)


def render_generic(v: dict[str, Any], last: str | None = None) -> str:
    """Any title's view, as sorted JSON (a title without its own ``env_renderer``)."""
    import json

    lines = [json.dumps(v, sort_keys=True, default=str)]
    if last:
        lines.append(f"  last: {last}")
    return "\n".join(lines)


def render_view(game: str, view: dict[str, Any], last: str | None = None) -> str:
    """The text of ``view`` by the title's ``env_renderer`` part."""
    if game not in GAMES:
        raise ValueError(f"no renderer for game {game!r}")
    render = title(game).load("env_renderer")
    return render(view, last)


def render_env(
    render_mode: str | None, game, game_name: str, state, seat: int | None, last_action: str | None
) -> str | None:
    """The ``render()`` of both environments: text for "ansi", printed for "human"."""
    if render_mode is None:
        import gymnasium

        gymnasium.logger.warn("render() called without a render_mode (use 'ansi' or 'human')")
        return None
    if state is None:
        text = f"{game.title}: not started (call reset())"
    else:
        text = render_view(game_name, state.view(seat), last_action)
    if render_mode == "human":
        print(text + "\n")
        return None
    return text
