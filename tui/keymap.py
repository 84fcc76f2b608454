"""Keymaps: TOML files mapping binding ids to keys (SPEC §1, §6).

A keymap file has one table, `[keys]`, whose keys are binding ids (`"conflicts.keep"`) and whose values are a key
string (`"k"`, `"space,enter"`) or a list of key strings. Presets ship in the `memkeeper.keymaps` package
(`default.toml`, `vim.toml`); `--keymap NAME|PATH` picks one, and the user file
`$XDG_CONFIG_HOME/memkeeper/keymap.toml` (default `~/.config/...`) overrides it id by id.

Unknown ids are collected as errors rather than ignored: a typo in a user keymap must be visible, not silently dead.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from textual.binding import Binding, BindingsMap
from textual.dom import DOMNode
from textual.keys import KEY_ALIASES, Keys, _character_to_key, _normalize_key_list, key_to_character

PRESETS_PACKAGE = "memkeeper.keymaps"
DEFAULT_PRESET = "default"


class KeymapError(ValueError):
    """A keymap that cannot be used at all (unknown preset, missing or unparsable file)."""


@dataclass
class Keymap:
    """The merged keymap and what went into it."""

    keys: dict[str, str] = field(default_factory=dict)  # binding id -> comma-separated keys
    sources: list[str] = field(default_factory=list)  # preset names / file paths, lowest precedence first
    errors: list[str] = field(default_factory=list)  # unknown ids, bad values: shown to the user
    origin: dict[str, str] = field(default_factory=dict)  # binding id -> the source that set it last

    @property
    def preset(self) -> str:
        return self.sources[0] if self.sources else DEFAULT_PRESET


def preset_names() -> list[str]:
    files = resources.files(PRESETS_PACKAGE)
    return sorted(p.name[:-5] for p in files.iterdir() if p.name.endswith(".toml"))


def user_keymap_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "memkeeper" / "keymap.toml"


def user_keymap_display() -> str:
    """The user file's location as the person would type it (stable across machines, unlike the resolved path)."""
    if os.environ.get("XDG_CONFIG_HOME"):
        return "$XDG_CONFIG_HOME/memkeeper/keymap.toml"
    return "~/.config/memkeeper/keymap.toml"


def display_source(source: str) -> str:
    return user_keymap_display() if source == str(user_keymap_path()) else source


#: The modifiers Textual puts before a key name, joined by "+" ("ctrl+shift+up").
MODIFIERS = frozenset({"ctrl", "shift", "alt", "meta", "super", "hyper"})
#: Names people write for keys Textual spells otherwise: offered as the fix.
KEY_SPELLINGS = {"esc": "escape", "spacebar": "space", "del": "delete", "pgup": "pageup", "pgdn": "pagedown"}


def _key_names() -> frozenset[str]:
    """The names Textual gives a key without its modifiers (`escape`, `up`, `f5`, `space`, `pagedown`, ...)."""
    names = {key.value.rsplit("+", 1)[-1] for key in Keys if not key.value.startswith("<")}
    names |= {alias.rsplit("+", 1)[-1] for aliases in KEY_ALIASES.values() for alias in aliases}
    names |= {_character_to_key(chr(code)) for code in range(32, 127)}  # `slash`, `question_mark`, `minus`
    return frozenset(names)


KEY_NAMES = _key_names()


def is_key(key: str) -> bool:
    """Whether Textual can produce `key`: modifiers joined by "+" to a key name or a single printable character
    (`k`, `K`, `?`, `question_mark`, `ctrl+b`, `shift+down`)."""
    if len(key) == 1:
        return key.isprintable()
    if key.endswith("++"):  # the plus key itself, modified ("ctrl++")
        modifiers, name = key[:-2].split("+"), "+"
    else:
        *modifiers, name = key.split("+")
    if not name or any(m not in MODIFIERS for m in modifiers):
        return False
    if (len(name) == 1 and name.isprintable()) or name in KEY_NAMES:
        return True
    # Another character by its name, as Textual spells it (`pound_sign`); `key_to_character` alone also takes
    # "Esc" (the control character), which no key press is ever called.
    character = key_to_character(name)
    return character is not None and character.isprintable() and _character_to_key(character) == name


def key_suggestion(key: str) -> str | None:
    """A key Textual can produce that `key` was probably meant to be (`ctrl+b` for `ctrl-b`, `escape` for `Esc`)."""
    for candidate in (key.replace("-", "+"), key.lower(), key.lower().replace("-", "+")):
        *mods, name = candidate.split("+")
        candidate = "+".join([*mods, KEY_SPELLINGS.get(name, name)])
        if candidate != key and is_key(candidate):
            return candidate
    return None


def parse_keymap_text(text: str, source: str) -> tuple[dict[str, str], list[str]]:
    """Parse a keymap TOML document. Returns (keys, errors); raises KeymapError when it is not TOML at all."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise KeymapError(f"{source}: not valid TOML: {exc}") from None
    table = data.get("keys", {})
    errors: list[str] = []
    if not isinstance(table, dict):
        return {}, [f"{source}: [keys] must be a table of binding id = key"]
    for extra in sorted(set(data) - {"keys"}):
        errors.append(f"{source}: unknown top-level entry {extra!r} (only [keys] is read)")
    keys: dict[str, str] = {}
    for binding_id, value in table.items():
        if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            value = ",".join(value)
        if not isinstance(value, str) or not [k for k in value.split(",") if k.strip()]:
            errors.append(f"{source}: {binding_id!r} must be a non-empty key string or list of keys")
            continue
        if any(not k.strip() for k in value.split(",")):
            errors.append(f"{source}: {binding_id!r} has an empty key in {value!r}")
            continue
        # A key Textual cannot produce would be shown in the footer and never work: the binding keeps its default.
        unknown = [k.strip() for k in value.split(",") if not is_key(k.strip())]
        if unknown:
            for key in unknown:
                hint = f" (did you mean {fix!r}?)" if (fix := key_suggestion(key)) else ""
                errors.append(f"{source}: {binding_id!r} has an unknown key {key!r}{hint}; it keeps its default")
            continue
        keys[binding_id] = ",".join(k.strip() for k in value.split(","))
    return keys, errors


def _read_preset(name: str) -> str:
    res = resources.files(PRESETS_PACKAGE) / f"{name}.toml"
    if not res.is_file():
        raise KeymapError(
            f"unknown keymap {name!r} (presets: {', '.join(preset_names())}; or give a path to a .toml file)"
        )
    return res.read_text(encoding="utf-8")


def load_keymap(
    spec: str | os.PathLike[str] | None = None,
    *,
    known_ids: Iterable[str] | None = None,
    user_file: Path | None = None,
    use_user_file: bool = True,
) -> Keymap:
    """Merge a preset (or keymap file) and the user file; report unknown ids against `known_ids`.

    `spec` is a preset name (`default`, `vim`) or a path to a TOML file; None means the default preset.
    Raises KeymapError when the preset or file cannot be read; per-id problems are returned in `.errors`.
    """
    km = Keymap()
    name = os.fspath(spec) if spec is not None else DEFAULT_PRESET
    looks_like_path = os.sep in name or name.endswith(".toml") or (os.altsep and os.altsep in name)
    if looks_like_path:
        path = Path(name).expanduser()
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise KeymapError(f"cannot read keymap {name!r}: {exc.strerror or exc}") from None
        source = str(path)
    else:
        text = _read_preset(name)
        source = name
    keys, errors = parse_keymap_text(text, source)
    km.keys.update(keys)
    km.origin.update(dict.fromkeys(keys, source))
    km.errors.extend(errors)
    km.sources.append(source)

    if use_user_file:
        upath = user_file if user_file is not None else user_keymap_path()
        if upath.is_file():
            try:
                ukeys, uerrors = parse_keymap_text(upath.read_text(encoding="utf-8"), str(upath))
            except (OSError, KeymapError) as exc:
                # A broken user file must not stop the desk from opening: report it and carry on.
                km.errors.append(str(exc))
            else:
                km.keys.update(ukeys)
                km.origin.update(dict.fromkeys(ukeys, str(upath)))
                km.errors.extend(uerrors)
                km.sources.append(str(upath))

    if known_ids is not None:
        known = set(known_ids)
        for binding_id in sorted(km.keys):
            if binding_id not in known:
                km.errors.append(f"{km.origin[binding_id]}: unknown binding id {binding_id!r}")
        km.keys = {k: v for k, v in km.keys.items() if k in known}
    return km


# ------------------------------------------------------------------------------------------------ binding inspection


def class_bindings(cls: type[DOMNode]) -> list[Binding]:
    """Every binding a class declares (its own and inherited), keys already expanded."""
    merged: BindingsMap = cls._merge_bindings()
    return [b for bindings in merged.key_to_bindings.values() for b in bindings]


def binding_ids(classes: Iterable[type[DOMNode]]) -> dict[str, Binding]:
    """id -> one Binding (the first seen), across `classes`."""
    out: dict[str, Binding] = {}
    for cls in classes:
        for binding in class_bindings(cls):
            if binding.id and binding.id not in out:
                out[binding.id] = binding
    return out


def default_keys(classes: Iterable[type[DOMNode]]) -> dict[str, str]:
    """id -> the comma-joined keys the code declares (before any keymap)."""
    out: dict[str, list[str]] = {}
    for cls in classes:
        for binding in class_bindings(cls):
            if binding.id and binding.key not in out.setdefault(binding.id, []):
                out[binding.id].append(binding.key)
    return {k: ",".join(v) for k, v in out.items()}


def live_bindings(node: DOMNode, keymap: dict[str, str]) -> list[Binding]:
    """The bindings of `node` with `keymap` applied, as Textual resolves them when a key is pressed."""
    bindings = node._bindings.copy()
    if keymap:
        bindings.apply_keymap(keymap)
    return [b for key_bindings in bindings.key_to_bindings.values() for b in key_bindings]


def normalize_keys(keys: str) -> str:
    """Long key names (`question_mark` for `?`), the form Textual compares."""
    return _normalize_key_list(keys)
