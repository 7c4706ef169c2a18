"""Cards as small SVG pictures, drawn from the card list of the table.

A card's picture shows what ``spec/config.py`` says of it: its suit (as a
colour; the suits are named after colours), its rank or its kind, and its
point value.  Each card of a table is defined once as an SVG ``<symbol>``
(``card_symbols``) and drawn wherever it appears with a ``<use>`` of it
(``card_svg``), so a page that shows the same hand at every step of a trace
stays small.
"""
from __future__ import annotations

import re
from html import escape

from itcp.spec.config import SUIT_NAMES, Card

#: How each suit's name is drawn (a readable shade of the colour it is named after).
SUIT_SHADES = {"red": "#c62828", "blue": "#1f5fbf", "green": "#2e7d32",
               "yellow": "#b58900", "purple": "#7b3fa0", "orange": "#d9640a"}
#: An option card has no suit.
OPTION_SHADE = "#37474f"

WIDTH, HEIGHT = 50, 70


def shade(card: Card) -> str:
    if card.suit is None:
        return OPTION_SHADE
    return SUIT_SHADES.get(SUIT_NAMES[card.suit], "#555")


def symbol_id(card: Card) -> str:
    """The picture's id, from the card's name (unique at a table, and the same card
    at every table: a page may show traces of several tables)."""
    return "card-" + re.sub(r"[^A-Za-z0-9]+", "-", card.name).strip("-")


def _title(card: Card) -> tuple[str, str]:
    """(corner mark, words in the middle) for the picture."""
    if card.kind == "number":
        return str(card.rank), str(card.rank)
    words = card.name.split(" ", 1)[1] if card.suit is not None else card.name
    return words[0], words


def _lines(words: str, width: int = 9) -> list[str]:
    out, line = [], ""
    for w in words.split():
        if line and len(line) + 1 + len(w) > width:
            out.append(line)
            line = w
        else:
            line = f"{line} {w}".strip()
    return out + ([line] if line else [])


def card_symbol(card: Card) -> str:
    """The card's ``<symbol>``: a rounded card, its mark in the corner, its rank or
    kind in the middle, its points at the foot."""
    col = shade(card)
    corner, words = _title(card)
    face = "#fff" if card.suit is not None else "#eceff1"
    parts = [f'<symbol id="{symbol_id(card)}" viewBox="0 0 {WIDTH} {HEIGHT}">',
             f'<rect x="1" y="1" width="{WIDTH - 2}" height="{HEIGHT - 2}" rx="5" '
             f'fill="{face}" stroke="{col}" stroke-width="2"/>',
             f'<text x="5" y="13" font-size="11" font-weight="bold" fill="{col}">'
             f'{escape(corner)}</text>']
    if card.kind == "number":
        parts.append(f'<text x="{WIDTH / 2}" y="{HEIGHT / 2 + 8}" font-size="24" '
                     f'font-weight="bold" text-anchor="middle" fill="{col}">{escape(words)}</text>')
    else:
        lines = _lines(words)
        y0 = HEIGHT / 2 - 5 * (len(lines) - 1) + 3
        # the longest line fits the card's width (a bold letter is about 0.62 em)
        size = min(8.5, (WIDTH - 6) / (0.62 * max(len(x) for x in lines)))
        for k, line in enumerate(lines):
            parts.append(f'<text x="{WIDTH / 2}" y="{y0 + 10 * k}" font-size="{size:.1f}" '
                         f'font-weight="bold" text-anchor="middle" fill="{col}">'
                         f'{escape(line)}</text>')
    parts.append(f'<text x="{WIDTH - 5}" y="{HEIGHT - 6}" font-size="8" text-anchor="end" '
                 f'fill="#666">{card.value} pt{"s" * (card.value != 1)}</text>')
    parts.append("</symbol>")
    return "".join(parts)


def card_symbols(cards) -> str:
    """One hidden ``<svg>`` defining every card of the table (put once in a page)."""
    return ('<svg width="0" height="0" style="position:absolute" aria-hidden="true">'
            + "".join(card_symbol(c) for c in cards) + "</svg>")


def card_svg(card: Card, css: str = "card") -> str:
    """A drawing of ``card`` (its symbol must be in the page)."""
    name = escape(card.name)
    return (f'<svg class="{css}" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
            f'data-card="{name}" aria-label="{name}"><title>{name} ({card.value} points)'
            f'</title><use href="#{symbol_id(card)}"/></svg>')


def card_back(css: str = "card back") -> str:
    """The back of a card (the deck)."""
    return (f'<svg class="{css}" viewBox="0 0 {WIDTH} {HEIGHT}" aria-hidden="true">'
            f'<rect x="1" y="1" width="{WIDTH - 2}" height="{HEIGHT - 2}" rx="5" fill="#5c6bc0" '
            f'stroke="#283593" stroke-width="2"/><rect x="7" y="7" width="{WIDTH - 14}" '
            f'height="{HEIGHT - 14}" rx="3" fill="none" stroke="#c5cae9" stroke-width="1.5"/>'
            "</svg>")


__all__ = ["card_symbol", "card_symbols", "card_svg", "card_back", "shade", "SUIT_SHADES"]
