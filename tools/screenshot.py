"""The docs' screenshots, made in headless Chromium: a violation's trace at its last
step (the README's), and a sentence of the literate rulebook.

    python -m tools.screenshot [OUT.png] [--property FROZEN] [--variant official]
    python -m tools.screenshot docs/rulebook-pride.png --rulebook pride.1

The first runs ``itcp-check check VARIANT --property P --html PAGE`` (the command
as a user runs it, at the default check table), opens the page in headless
Chromium (``tools/browser.py``), steps through the property's trace with the
arrow keys to its last move and saves a picture of the stepper.  The committed
``docs/report-frozen.png`` is made by this script with its defaults.  With
``--rulebook SENTENCE`` it runs ``itcp-check rulebook VARIANT --html PAGE``,
follows the table of contents' link to the sentence and saves a picture of its
section (``docs/rulebook-pride.png``: ``--rulebook pride.1``).
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from tools.browser import missing, page

DEFAULT_OUT = "docs/report-frozen.png"


def _html(tmp: str, *command: str) -> Path:
    """Run ``itcp-check COMMAND... --html PAGE`` in ``tmp``; the page."""
    html = Path(tmp) / "report.html"
    r = subprocess.run([sys.executable, "-m", "itcp.cli.main", *command, "--html", str(html)],
                       capture_output=True, text=True)
    if r.returncode not in (0, 1) or not html.is_file():
        raise SystemExit(f"itcp-check failed ({r.returncode}):\n{r.stderr}")
    return html


def shoot(out: Path, prop: str = "FROZEN", variant: str = "official") -> int:
    """Make the picture; the number of moves of the trace shown."""
    with tempfile.TemporaryDirectory(prefix="itcp-shot-") as tmp:
        html = _html(tmp, "check", variant, "--property", prop)
        with page(width=1100, height=900) as pg:
            pg.goto(html.resolve().as_uri())
            stepper = pg.locator(f"#trace-{prop}")
            if stepper.count() == 0:
                raise SystemExit(f"{prop} is not violated by {variant}: no trace to show")
            n = int(stepper.get_attribute("data-steps"))
            stepper.focus()
            for _ in range(n):
                pg.keyboard.press("ArrowRight")
            if stepper.get_attribute("data-current") != str(n):
                raise SystemExit("the stepper did not reach the last step")
            out.parent.mkdir(parents=True, exist_ok=True)
            stepper.screenshot(path=str(out))
    return n


def shoot_rulebook(out: Path, sentence: str, variant: str = "official") -> int:
    """Picture one sentence's section of the rulebook page, reached through the
    table of contents; the number of rules it shows."""
    with tempfile.TemporaryDirectory(prefix="itcp-shot-") as tmp:
        html = _html(tmp, "rulebook", variant)
        with page(width=1100, height=900) as pg:
            pg.goto(html.resolve().as_uri())
            link = pg.locator(f'tr[data-row="{sentence}"] a')
            if link.count() == 0:
                raise SystemExit(f"{sentence} is not a sentence of the rulebook page")
            link.click()
            section = pg.locator(f'section[data-sentence="{sentence}"]')
            if not section.is_visible():
                raise SystemExit(f"the section of {sentence} is not shown")
            out.parent.mkdir(parents=True, exist_ok=True)
            section.screenshot(path=str(out))
            return section.locator("li.rule").count()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.screenshot",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("out", nargs="?", default=DEFAULT_OUT, help=f"default {DEFAULT_OUT}")
    ap.add_argument("--property", default="FROZEN")
    ap.add_argument("--variant", default="official")
    ap.add_argument("--rulebook", metavar="SENTENCE", default=None,
                    help="picture this sentence of the literate rulebook instead")
    args = ap.parse_args(argv)
    why = missing()
    if why:
        print(f"error: {why}", file=sys.stderr)
        return 2
    if args.rulebook is not None:
        n = shoot_rulebook(Path(args.out), args.rulebook, args.variant)
        print(f"{args.out}: the rulebook at {args.rulebook} ({n} rules)")
        return 0
    n = shoot(Path(args.out), args.property, args.variant)
    print(f"{args.out}: {args.property} at its last step ({n} moves)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
