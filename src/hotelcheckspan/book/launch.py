"""The chapters' first code cell: where ``hotelcheckspan`` is missing (Colab, from a chapter's
launch button), clone the repository, package and data, and install it as the README says.

The cell acts exactly where this package is absent, so it cannot call into it: its text is
written out in every chapter, hidden on the site. This module holds that text, rendered from
``_config.yml``'s ``repository.url`` (the one place the URL is written), and rewrites it in the
chapters' ``.py`` sources when it changes: ``python -m hotelcheckspan.book.launch``.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from hotelcheckspan import paths

TAGS = ["remove-cell", "colab"]
HEADER = '# %% tags=["remove-cell", "colab"]'
CLONE = "hotelcheckspan-compendium"
TORCH_CPU_INDEX = "https://download.pytorch.org/whl/cpu"


def repository_url(config: Path = paths.REPO_ROOT / "_config.yml") -> str:
    """The repository's URL as ``_config.yml`` gives it (``repository.url``)."""
    return yaml.safe_load(config.read_text(encoding="utf-8"))["repository"]["url"]


def pip_install_args(clone: str = CLONE) -> list[str]:
    """What the cell passes to ``python -m pip``: the README's install command."""
    return ["install", "--extra-index-url", TORCH_CPU_INDEX, "-e", clone]


def colab_cell(url: str | None = None) -> str:
    """The cell's source (without its ``# %%`` header), as ruff formats it."""
    url = url or repository_url()
    args = ", ".join(f'"{a}"' for a in pip_install_args()[:-1]).replace(f'"{TORCH_CPU_INDEX}"', "cpu")
    return f'''# Colab: clone the repository (package and data) and install it as the README says
try:
    import hotelcheckspan  # noqa: F401
except ImportError:
    import os
    import subprocess
    import sys

    repo = "{url}"
    clone = os.path.abspath("{CLONE}")
    subprocess.run(["git", "clone", "--depth", "1", repo, clone], check=True)
    cpu = "{TORCH_CPU_INDEX}"  # torch's CPU build
    subprocess.run([sys.executable, "-m", "pip", {args}, clone], check=True)
    sys.path.insert(0, os.path.join(clone, "src"))
    os.chdir(os.path.join(clone, "notebooks"))
'''


_CELL = re.compile(re.escape(HEADER) + r"\n.*?(?=\n# %%)", re.S)


def sync(notebooks: Path = paths.REPO_ROOT / "notebooks") -> list[Path]:
    """Rewrite the Colab cell in every chapter's ``.py`` source whose text differs; returns
    those changed (their ``.ipynb`` twins then need re-executing: ``make notebooks NB=..``)."""
    changed = []
    cell = f"{HEADER}\n{colab_cell()}"
    for path in sorted(notebooks.glob("[0-9][0-9]_*.py")):
        text = path.read_text(encoding="utf-8")
        new = _CELL.sub(lambda _: cell, text, count=1)
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed.append(path)
    return changed


if __name__ == "__main__":
    for path in sync():
        print(f"rewrote the Colab cell of {path.name}")
