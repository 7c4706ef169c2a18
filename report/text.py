"""A check's report as the terminal shows it: one reporter for every engine.

``check_text(report)`` renders a ``checks.results.Report``: the variant and
table, the search's figures (the explicit search's, or the symbolic run's),
one line per property (its verdict and its evidence's ``summary``), each
violation told as a story (``scenarios/story.py``), and rule coverage or the
SMT-LIB2 files written.  The lines about files a command wrote (scenarios, an
HTML page) are said here too, from what the command tells it.  Nothing here
looks inside the evidence: each kind says itself.
"""
from __future__ import annotations

import textwrap

from itcp.checks.results import Coverage, Report, SearchStats, SymbolicStats, Verdict


def heading(report: Report) -> str:
    v = report.variant
    return f"itcp-check: variant {v.name} at {v.config.describe()}"


def search_line(st: SearchStats, stopped_by: str | None) -> str:
    """The explicit search's figures, and what stopped it or the analysis after it."""
    return (f"explicit-state search: {st.states:,} states, {st.transitions:,} "
            f"transitions, depth {st.depth}, {st.seconds:.1f} s"
            + (f", symmetry reduction on ({st.symmetries} symmetries; "
               f"{st.states_without_symmetry:,} states without)"
               if st.symmetry and st.symmetries > 1 else ", no symmetry reduction")
            + ("" if st.complete else f"; STOPPED by {st.limit}")
            + (f"; the analysis after it was stopped by {stopped_by}"
               if st.complete and stopped_by else ""))


def symbolic_line(st: SymbolicStats, stopped_by: str | None) -> str:
    """The symbolic run's figures, and what stopped it."""
    return (f"symbolic (Z3): {st.queries} queries, {st.seconds:.1f} s"
            + (f", BMC to depth {st.bmc_depth}" if st.bmc_depth else "")
            + (f"; STOPPED by {stopped_by}" if stopped_by else ""))


def verdict_lines(results) -> list[str]:
    """One line per property: its id, its verdict and its evidence in one line."""
    width = max(len(r.id) for r in results)
    return [f"  {r.id:<{width}}  {r.verdict:<8}  {r.evidence.summary()}" for r in results]


def violation_stories(results) -> list[str]:
    """Each violated property's statement and its trace told as a story."""
    lines = []
    for r in results:
        if r.verdict is Verdict.VIOLATED and r.trace is not None:
            lines += ["", f"{r.id}: {r.statement}"] + ["  " + s for s in r.trace.story]
    return lines


def coverage_lines(coverage: Coverage) -> list[str]:
    """How many rules fired at this table, and the ones that never did."""
    never = coverage.never_fired
    sampled = (" (rule firings were sampled once no new rule appeared for a while)"
               if coverage.sampled else "")
    lines = ["", f"coverage: {len(coverage.fired)} rules fired; {len(never)} never fired at "
                 f"this table{sampled} (checks may be vacuous for them)"
             + (":" if never else ".")]
    if never:
        lines += textwrap.wrap(", ".join(never), 100, initial_indent="  ",
                               subsequent_indent="  ")
    return lines


def check_text(report: Report, smt2_folder=None) -> str:
    """The report of ``itcp-check check`` (``smt2_folder``: where the SMT-LIB2
    files went, if they were asked for)."""
    if not report.started:
        return (f"{heading(report)}\nstopped by {report.stopped_by} before the search began: "
                "every verdict UNKNOWN")
    if report.search is not None:
        lines = [heading(report), search_line(report.search, report.stopped_by), ""]
    else:
        assert report.symbolic is not None
        lines = [heading(report), symbolic_line(report.symbolic, report.stopped_by), ""]
    lines += verdict_lines(report.results)
    lines += violation_stories(report.results)
    if report.coverage is not None:
        lines += coverage_lines(report.coverage)
    elif report.symbolic is not None and report.symbolic.smt2_files:
        lines += ["", f"{report.symbolic.smt2_files} SMT-LIB2 file(s) written to {smt2_folder}"]
    return "\n".join(lines)


def saved_text(saved, not_saved=None) -> str:
    """What was said of the scenario files asked for (``saved``: their paths, None
    when none were asked for; ``not_saved``: why none were)."""
    if not_saved is not None:
        return f"\n\nscenario files {not_saved}"
    if saved is None:
        return ""
    return "\n\n" + (f"{len(saved)} scenario file(s) saved: " + ", ".join(str(p) for p in saved)
                      if saved else "no violation: no scenario saved")


def html_text(written: dict) -> str:
    """What was said of the HTML page asked for (``written``: its path, or why not)."""
    if "html" in written:
        return f"\n\nHTML report written to {written['html']}"
    return f"\n\nHTML report {written['html_note']}" if written else ""


__all__ = ["check_text", "verdict_lines", "violation_stories", "coverage_lines",
           "search_line", "symbolic_line", "saved_text", "html_text", "heading"]
