"""The README's screenshot: a violation's trace at its last step, in Chromium.

    python -m tools.screenshot [OUT.png] [--property FROZEN] [--variant official]

runs ``itcp-check check VARIANT --property P --html PAGE`` (the command as a
user runs it, at the default check table), opens the page in headless Chromium
(``tools/browser.py``), steps through the property's trace with the arrow
keys to its last move and saves a picture of the stepper.  The committed
``docs/report-frozen.png`` is made by this script with its defaults.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from tools.browser import missing, page

DEFAULT_OUT = "docs/report-frozen.png"


def shoot(out: Path, prop: str = "FROZEN", variant: str = "official") -> int:
    """Make the picture; the number of moves of the trace shown."""
    with tempfile.TemporaryDirectory(prefix="itcp-shot-") as tmp:
        html = Path(tmp) / "report.html"
        r = subprocess.run([sys.executable, "-m", "itcp.cli.main", "check", variant,
                            "--property", prop, "--html", str(html)],
                           capture_output=True, text=True)
        if r.returncode not in (0, 1) or not html.is_file():
            raise SystemExit(f"itcp-check failed ({r.returncode}):\n{r.stderr}")
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


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.screenshot",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("out", nargs="?", default=DEFAULT_OUT, help=f"default {DEFAULT_OUT}")
    ap.add_argument("--property", default="FROZEN")
    ap.add_argument("--variant", default="official")
    args = ap.parse_args(argv)
    why = missing()
    if why:
        print(f"error: {why}", file=sys.stderr)
        return 2
    n = shoot(Path(args.out), args.property, args.variant)
    print(f"{args.out}: {args.property} at its last step ({n} moves)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
