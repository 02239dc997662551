#!/usr/bin/env python3
"""Writes the commands of the tldr pages, one a line, for `bench/hook.py --batch-commands`.

Usage: bench/tldr.py CHECKOUT [OUT]

CHECKOUT is a checkout of the tldr-pages repository (its `pages/` folder is
read: every English page of every platform). Each example's command, the
text between the backquotes of a line that is nothing else, becomes one line
with its `{{placeholders}}` rendered as the pages' client specification says
a client shows them by default: a placeholder unwrapped (`{{path/to/file}}` ->
`path/to/file`), an option's short and long forms as the long one
(`{{[-f|--force]}}` -> `--force`), and a choice of values as its first
(`{{start|stop}}` -> `start`), so every command is one an agent could run as
written rather than a pipeline through `|`; a command that several
pages show is written once, in the order first seen. Nothing of the pages
is kept in this repository: the stream is material we did not write, and the
batch rate over it says what warden costs on ordinary commands. OUT defaults
to target/bench/tldr-commands.txt. Prints the number of pages, of commands
and of distinct ones (those written).
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
EXAMPLE = re.compile(r"^`(.+)`\s*$")
PLACEHOLDER = re.compile(r"\{\{(.*?)\}\}")
OPTION_FORMS = re.compile(r"^\[([^|\]]*)\|([^\]]*)\]$")


def rendered(placeholder):
    """A placeholder as a client shows it by default: an option's long form, a choice's first value."""
    text = placeholder.group(1)
    forms = OPTION_FORMS.match(text)
    if forms:
        return forms.group(2)
    if "|" in text and " " not in text:
        return text.split("|")[0]
    return text


def commands(checkout):
    pages = sorted((checkout / "pages").glob("*/*.md"))
    out = []
    for page in pages:
        for line in page.read_text(encoding="utf-8", errors="replace").splitlines():
            m = EXAMPLE.match(line)
            if m:
                out.append(PLACEHOLDER.sub(rendered, m.group(1)))
    return pages, out


def main():
    args = sys.argv[1:]
    if not args or args[0] in ("-h", "--help") or len(args) > 2:
        print(__doc__.strip())
        sys.exit(0 if args and args[0] in ("-h", "--help") else 2)
    checkout = pathlib.Path(args[0])
    if not (checkout / "pages").is_dir():
        sys.exit(f"bench/tldr.py: {checkout}/pages is not a folder: is it a tldr-pages checkout?")
    out = pathlib.Path(args[1]) if len(args) > 1 else ROOT / "target" / "bench" / "tldr-commands.txt"
    pages, lines = commands(checkout)
    if not lines:
        sys.exit(f"bench/tldr.py: no examples found under {checkout}/pages")
    distinct = list(dict.fromkeys(lines))
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(distinct) + "\n", encoding="utf-8")
    print(f"{out}: {len(pages):,} pages, {len(lines):,} commands, {len(distinct):,} distinct")


if __name__ == "__main__":
    main()
