"""Reading the JSON files the subcommands take (END.json, a rules profile): one-line errors naming the file."""
from __future__ import annotations

from companion.games.errors import InvalidInput
from companion.games.text import readable_path
from companion.session.jsontext import loads


class InputError(Exception):
    """A file the user gave cannot be used; the message is one line: "PATH: what is wrong"."""

    def __init__(self, path: str, message: str):
        super().__init__(f"{readable_path(path)}: {message}")


def load_json(path: str, *, unique_keys: bool = False):
    """The parsed file, or InputError with a one-line reason (`unique_keys`: a key twice in an object is one)."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as err:
        raise InputError(path, f"cannot read the file ({err.strerror or err})") from None
    except UnicodeDecodeError:
        raise InputError(path, "cannot read the file (not UTF-8 text)") from None
    try:
        return loads(text, unique_keys=unique_keys)
    except InvalidInput as err:
        raise InputError(path, str(err)) from None


def load_rules(game, path: str | None):
    """`game`'s rules profile from `path` (its defaults when None), or InputError naming the bad field."""
    if path is None:
        return game.default_rules()
    try:
        return game.rules_from_json(load_json(path))
    except InvalidInput as err:
        raise InputError(path, str(err)) from None
