"""Write docs/cli.md, the command-line reference: every command's ``--help``, in
the groups and order of ``raspis --help``.

    python -m scripts.cli_reference           # rewrite docs/cli.md
    python -m scripts.cli_reference --check   # exit 1 when docs/cli.md is not what --help says

The help is the English one, 80 columns wide, as a pipe prints it.
``tests/test_cli_reference.py`` fails while the page and the help differ.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from raspis_cli.cli.registry import COMMAND_GROUPS, COMMANDS

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "cli.md"
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")



def help_text(*words: str) -> str:
    """``raspis WORDS --help`` as a pipe prints it, in English, 80 columns."""
    env = {k: v for k, v in os.environ.items() if k not in LOCALE_VARIABLES}
    env.update(COLUMNS="80", NO_COLOR="1", PYTHONIOENCODING="utf-8")
    done = subprocess.run([sys.executable, "-m", "raspis_cli", *words, "--help"], cwd=ROOT, env=env,
                          capture_output=True, text=True, encoding="utf-8", check=True)
    return "\n".join(line.rstrip() for line in done.stdout.rstrip().splitlines())


def subcommands(help_of_group: str) -> list[str]:
    """The names a group's help lists under ``Commands:`` (``rules``: list, show, schedule)."""
    names: list[str] = []
    listing = False
    for line in help_of_group.splitlines():
        if not line.strip():
            listing = False if names else listing
            continue
        if not line.startswith(" "):
            listing = line.rstrip(":") == "Commands"
        elif listing and line.startswith("  ") and not line.startswith("   "):
            names.append(line.split()[0])
    return names


def page() -> str:
    """The whole reference page."""
    out = ["# Command line reference", "",
           "<!-- Made by scripts/cli_reference.py from raspis --help: edit the help texts, then run it. -->",
           "",
           "Every command of `raspis`, with its options, as `raspis COMMAND --help` prints them. The",
           "same help is in Russian with `--lang ru` (or a Russian locale).", "",
           "```text", help_text(), "```", ""]
    for group, title in COMMAND_GROUPS:
        out += [f"## {title}", ""]
        for name, _module, in_group, _summary in COMMANDS:  # the order of raspis --help
            if in_group != group:
                continue
            text = help_text(name)
            out += [f"### raspis {name}", "", "```text", text, "```", ""]
            for sub in subcommands(text):
                out += [f"#### raspis {name} {sub}", "", "```text", help_text(name, sub), "```", ""]
    return "\n".join(out)


def main() -> int:
    """Write the page, or with --check say whether it is up to date."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when docs/cli.md is out of date")
    args = parser.parse_args()
    text = page()
    if args.check:
        if PAGE.read_text(encoding="utf-8") != text:
            print(f"{PAGE.relative_to(ROOT)} is out of date: run python -m scripts.cli_reference")
            return 1
        return 0
    PAGE.write_text(text, encoding="utf-8")
    print(f"wrote {PAGE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
