"""What a check returns, and what it is given.

A check is a function ``check(ctx: Context) -> Outcome`` registered with
:func:`olr_verify.registry.check`.  Statuses follow ``shared/CONTRACT.md``:

- ``proved``       a rigorous certificate over the whole stated domain;
- ``refuted``      a counterexample re-checked in >= 50-digit or ball arithmetic,
                   saved as a replayable artefact (``Outcome.counterexample``);
- ``verified``     no certificate, every check and hunt passed; evidence says how much was tried;
- ``inconclusive`` the tools could not decide (evidence says why);
- ``error``        the check itself failed (the runner records the traceback).
"""
from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

STATUSES = ("proved", "refuted", "verified", "inconclusive", "error")


@dataclasses.dataclass
class Outcome:
    """The verdict of one check.

    ``counterexample`` is the artefact payload (a JSON-serialisable dict with a
    ``"replay"`` entry naming its replayer, see :mod:`olr_verify.artefacts`); the
    runner writes it next to ``results.json`` and stores the relative path.
    ``certificate`` backs a ``proved`` status: the runner re-checks it with
    :func:`olr_verify.kernel.check` and downgrades ``proved`` to ``verified`` when it is missing or
    rejected (``evidence["kernel"]`` says why).
    """

    status: str
    method: str
    evidence: dict[str, Any] = dataclasses.field(default_factory=dict)
    counterexample: dict[str, Any] | None = None
    certificate: dict[str, Any] | None = None  # a kernel certificate (docs/certificates.md) for "proved"

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"status must be one of {STATUSES}, got {self.status!r}")
        if self.status == "refuted" and self.counterexample is None:
            raise ValueError("status 'refuted' needs a counterexample artefact")


@dataclasses.dataclass
class Context:
    """What the runner hands to each check.

    ``quick`` asks for a reduced budget (``olr-verify run --quick``); ``seed`` makes every
    random choice reproducible; figures go to ``figure_path(name)`` and are listed in the
    evidence under ``"figures"`` as ``{"path": "figures/<name>", "caption": ...}``.
    """

    out_dir: Path
    quick: bool = False
    seed: int = 20261123

    def figure_path(self, name: str) -> Path:
        path = self.out_dir / "figures" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        return path

    @staticmethod
    def figure_entry(name: str, caption: str) -> dict[str, str]:
        return {"path": f"figures/{name}", "caption": caption}

    def save_figure(self, fig, name: str, caption: str, dpi: int = 90, tight: bool = True) -> dict[str, str]:
        """Write a matplotlib figure to ``figures/<name>``, close it and return its evidence entry."""
        if tight:
            fig.tight_layout()
        fig.savefig(self.figure_path(name), dpi=dpi)
        import matplotlib.pyplot as plt

        plt.close(fig)
        return self.figure_entry(name, caption)

    @staticmethod
    def pyplot():
        """matplotlib.pyplot on the file-only Agg backend (a check draws its figures without a display)."""
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        return plt


def no_check_yet() -> Outcome:
    return Outcome("inconclusive", "none", {"reason": "no check yet"})
