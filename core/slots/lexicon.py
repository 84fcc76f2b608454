"""The word lists of the relation policy, and the two word forms every comparison uses.

`lexicon()` reads `data/relations.toml` (package data) once into a `Lexicon`: negation cues, states with two
poles, change cues, hedges, bounds, numbers, units, the calendar, frequencies, value classes, places, roles and the
vocabulary (abbreviations, spelling variants, everyday synonyms, light words). `fold` makes a text plain (NFKC,
plain apostrophes, no accents); `stem` is the comparison form of a word (spelling variant, synonym and abbreviation
folded, then the engine's one stemmer, `text.stem`).

Parsing the TOML and building the lists costs a capture ~15 ms, every process. The built lists are kept in a cache
beside the data, as Python keeps bytecode: `data/__pycache__/relations.<interpreter>.lexicon`, in marshal format,
headed by the sha256 of the two files it is made from (relations.toml and this module). A cache that is missing,
unreadable or made from other files is ignored and written again (when the directory is writable; otherwise every
process parses the TOML, as before).
"""

from __future__ import annotations

import functools
import hashlib
import marshal
import os
import re
import sys
import threading
import unicodedata
from pathlib import Path
from typing import Any

from ..text import stem as text_stem


def _phrase(s: str) -> tuple[str, ...]:
    return tuple(_words_of(s))


def _words_of(s: str) -> list[str]:
    return [t for t in re.findall(r"[a-z0-9$€£%°#@+.'/&-]+", fold(s).lower()) if t]


class Lexicon:
    """The word lists, read once by `lexicon()` and never changed. A plain class: as a frozen dataclass of 50 fields
    it cost every capture 4 ms to create at import."""

    raw: dict[str, Any]
    negation_cues: frozenset[str]
    universal: frozenset[str]  # "not allergic to anything": a denial of every object
    bare_verbs: dict[str, str]  # form -> verb: light verbs that are a whole predicate ("never runs")
    not_before_verb: frozenset[str]  # "before work", "wants to run": no verb after these
    so_far: frozenset[str]
    not_negation: tuple[tuple[str, ...], ...]
    verbal_negation: frozenset[str]  # cues that negate a verb (with every contraction and word ending in n't)
    neg_prefixes: tuple[str, ...]
    predicate_endings: tuple[str, ...]
    free_suffixes: tuple[str, ...]
    clause_breaks: frozenset[str]
    conditions: frozenset[str]
    condition_phrases: tuple[tuple[str, ...], ...]
    alt_markers: tuple[tuple[str, ...], ...]
    preference_verbs: frozenset[str]
    states: dict[tuple[str, ...], tuple[str, int, bool]]  # phrase -> (class, pole +1/-1, needs copula)
    state_classes: dict[tuple[str, ...], tuple[tuple[str, int, bool], ...]]  # every class a phrase belongs to
    object_states: frozenset[str]  # classes whose two sides must share the object
    strong_cues: tuple[tuple[str, ...], ...]
    continuing: tuple[tuple[str, ...], ...]  # "still", "always": a thing goes on
    remaining: tuple[tuple[str, ...], ...]  # after an amount, what remains of it ("8 days left"): no change
    retiring: tuple[tuple[str, ...], ...]
    directional_cues: tuple[tuple[str, ...], ...]
    becoming: tuple[tuple[str, ...], ...]  # "went", "became": a value of its slot before it is the old one
    change_markers: tuple[tuple[str, ...], ...]
    off_movers: frozenset[str]  # verbs that take someone "off" a thing: "took the user off metformin"
    off_not_after: frozenset[str]
    hedges: tuple[tuple[str, ...], ...]
    attribution: tuple[tuple[str, ...], ...]  # "according to", "per": a source the statement names for itself
    approx: tuple[tuple[str, ...], ...]
    upper: tuple[tuple[str, ...], ...]
    limit_nouns: frozenset[str]
    floor_words: frozenset[str]
    rise_verbs: frozenset[str]
    capacity_modals: frozenset[str]
    lower: tuple[tuple[str, ...], ...]
    number_words: dict[str, float]
    ordinals: dict[str, int]
    multipliers: dict[str, float]
    units: dict[str, tuple[str, float]]
    glued_units: frozenset[str]
    apart_units: frozenset[str]  # glued units that also count one space after a number, as SI writes them ("30 s")
    weekdays: dict[str, int]
    weekday_groups: dict[tuple[str, ...], frozenset[int]]
    calendar_case: frozenset[str]
    months: dict[str, int]
    seasons: dict[str, int]
    quarters: dict[str, int]
    dayparts: dict[tuple[str, ...], tuple[int, int]]
    clock_words: dict[tuple[str, ...], int]
    bounds_of_time: frozenset[str]  # "until 7 in the evening": a clock time after these
    round_the_clock: tuple[tuple[str, ...], ...]  # "24/7": the whole day as a time range
    relative_days: frozenset[str]
    month_day_kinds: frozenset[str]
    time_zones: dict[str, int]
    relative_before: frozenset[str]  # "last", "next" before a period said relative to now
    relative_after: frozenset[str]  # "ago" after one
    periods: frozenset[str]
    full_months: frozenset[str]  # each month's first (full) name
    short_month_context: frozenset[str]
    dot_time_before: frozenset[str]
    particles: frozenset[str]
    imperative_objects: frozenset[str]
    event_prepositions: frozenset[str]
    year_parts: dict[str, tuple[int, int]]
    freq_words: dict[str, float]
    every: frozenset[str]
    rate_nouns: frozenset[str]  # "day rate": the time unit before one says per what
    other: frozenset[str]
    classes: dict[tuple[str, ...], list[tuple[str, str, frozenset[str], bool]]]  # phrase -> [(class, canon, heads, cs)]
    class_max_len: int
    places: frozenset[tuple[str, ...]]
    numbered_places: frozenset[str]
    street_types: frozenset[str]  # "Road", "St", "Close": the last word of a street address after its number
    place_preps: frozenset[str]
    spatial_preps: tuple[tuple[str, ...], ...]  # after a form of "be", what these name is a place
    honorifics: frozenset[str]
    kin: frozenset[str]  # "Ana's sister", "the user's partner": another person than the one named
    own: frozenset[str]  # stems: "the family dog" / "the user's dog" name one owner
    roles: tuple[tuple[str, ...], ...]
    object_verbs: frozenset[str]  # role words only before a determiner ("runs the weekly demo")
    label_heads: frozenset[str]
    label_always: frozenset[str]  # a whole number after one always says which one ("pipeline number 3")
    slot_nouns: dict[str, frozenset[str]]  # slot -> words naming that kind of value ("address:email" -> email)
    value_before: frozenset[str]
    value_preps: frozenset[str]
    passive_value_preps: frozenset[str]
    place_verbs: frozenset[str]
    affiliation_verbs: frozenset[str]  # "works at Google": the name after the preposition is where
    affiliation_preps: frozenset[str]
    name_skip_adverbs: frozenset[str]  # "is now Dr Okafor": the name after them is still a value
    age_before: frozenset[str]
    single_quantities: frozenset[str]  # quantity keys a subject has one of ("age", "grade")
    diet_eating: frozenset[str]  # verbs of eating, beside which a food word breaks a diet
    diet_excludes: dict[str, frozenset[str]]  # diet -> stems of what it leaves out
    grade_words: frozenset[str]  # "3rd grade", "a fifth grader": a school year
    grade_before_number: frozenset[str]  # "grade 2", "Year 4" (as written)
    grade_max: int
    price_words: frozenset[str]
    amount_dims: frozenset[str]
    currencies: frozenset[str]
    amount_glue: frozenset[str]
    pending: frozenset[str]
    day_range: frozenset[str]
    owners_self: frozenset[str]
    owners_group: frozenset[str]  # of owners_self, the memory's person with others ("our")
    owners_subject: frozenset[str]  # the memory's own person as a subject or after "by" ("User runs it", "by me")
    another: frozenset[str]
    passive_fillers: frozenset[str]
    additions: tuple[tuple[str, ...], ...]  # "also", "as well": a second fact beside another
    additions_final: frozenset[str]  # "too", "either": an addition only at the end of a sentence
    age_after: frozenset[str]
    births: frozenset[str]  # words that make the date after them a birth date ("born on", "birthday is")
    birth_glue: frozenset[str]
    made_verbs: frozenset[str]  # passives that make their subject: "was installed 3 years ago" is an age
    participles: frozenset[str]  # past participles not ending in -ed or -en ("held", "kept", "built")
    as_copulas: frozenset[str]  # before "as", a form of "be" ("works as an electrician")
    place_phrases: tuple[tuple[str, ...], ...]  # "takes place": a place verb
    additive_verbs: frozenset[str]  # "supports", "accepts": several members of a class at once
    span_starts: tuple[tuple[str, ...], ...]  # "opens", "departs": when a span starts
    span_ends: tuple[tuple[str, ...], ...]  # "closes", "lands", "until": when it ends
    role_holders: frozenset[str]  # nouns that name who holds a role ("team", "department")
    nth_weekday: dict[str, int]  # "first" 1 ... "fifth" 5, "last" -1: which weekday of the month
    nth_weekday_of: str  # "month": "the first Thursday of the month" is one value
    point_events: frozenset[str]  # "due", "expires": before "in"/"on" (point_preps) a point, not a limit
    point_preps: frozenset[str]
    single_classes: frozenset[str]  # value classes a project or person has one member of at a time
    when_words: frozenset[str]  # one-word members of classes that say when (time zones): never subject words
    context_preps: frozenset[str]
    determiners: frozenset[str]
    org_suffixes: frozenset[str]
    light: frozenset[str]
    compound_light: frozenset[str]  # light words that qualify the noun after them ("update job")
    counted_light: frozenset[str]  # light words a number still counts ("8 people")
    saint_words: frozenset[str]  # "St" of "St Anne's Primary": a name, no owner's
    # a value said to be the only one ("their only car", "economy only", "and nothing else"): `[exclusive]`
    derivations: frozenset[str]  # "dentist" / "dental": endings of one root
    # the function words the readers' rules turn on (`[grammar]`)
    copula: frozenset[str]
    contractions: frozenset[str]
    pronouns: frozenset[str]
    change_span_ends: frozenset[str]
    successor_preps: frozenset[str]
    passive_aux: frozenset[str]
    perfect_aux: frozenset[str]
    setting_glue: frozenset[str]
    not_done_before: frozenset[str]
    scope_words: frozenset[str]
    before_name: frozenset[str]
    rate_words: frozenset[str]
    label_glue: frozenset[str]
    of_counts: frozenset[str]
    sentence_abbreviations: frozenset[str]
    negative_pronouns: frozenset[str]
    naming_verbs: frozenset[str]
    subject_pronouns: frozenset[str]
    storey_words: frozenset[str]
    ordinal_nouns: frozenset[str]
    version_words: frozenset[str]
    counting_words: frozenset[str]
    which_openers: frozenset[str]
    whole_words: frozenset[str]
    multiplicatives: frozenset[str]
    period_offsets: dict[str, int]  # "last" -> -1, "this" -> 0, "next" -> 1
    exclusive_before: frozenset[str]
    exclusive_the_before: frozenset[str]
    exclusive_after: frozenset[str]
    exclusive_phrases: tuple[tuple[str, ...], ...]
    exclusive_not_next: frozenset[str]
    exclusive_not_prev: frozenset[str]
    apposed_classes: frozenset[str]  # "Max the dog": a member after "the" says what the name is
    common_acronyms: frozenset[str]  # acronyms that are common nouns ("CI", "CFP"): they anchor a subject
    subject_verbs: frozenset[str]  # verbs that end the phrase a statement is about
    abbreviations: dict[str, str]
    variants: dict[str, str]  # spelling variants and everyday synonyms (with their plurals) -> one word

    def __init__(self, **fields: Any) -> None:
        names = set(Lexicon.__annotations__)
        if set(fields) != names:
            raise TypeError(
                f"Lexicon fields: missing {sorted(names - set(fields))}, unknown {sorted(set(fields) - names)}"
            )
        self.__dict__.update(fields)


# Beside the package's modules, as secrets.PATTERNS_FILE (importlib.resources would import tempfile, shutil and
# zipfile for it: ~8 ms of every capture).
DATA_FILE = Path(__file__).parent.parent / "data" / "relations.toml"
_CACHE_MAGIC = b"memkeeper-lexicon-1\n"


def cache_file() -> Path:
    return DATA_FILE.parent / "__pycache__" / f"relations.{sys.implementation.cache_tag}.lexicon"


@functools.cache
def lexicon() -> Lexicon:
    source = DATA_FILE.read_bytes()
    try:
        module = Path(__file__).read_bytes()
    except OSError:  # no source beside the bytecode: nothing to key a cache on
        return Lexicon(**build_fields(source))
    key = _CACHE_MAGIC + hashlib.sha256(source + b"\0" + module).hexdigest().encode("ascii") + b"\n"
    cached = _read_cache(key)
    if cached is not None:
        return Lexicon(**cached)
    fields = build_fields(source)
    _write_cache(key, fields)
    return Lexicon(**fields)


def _read_cache(key: bytes) -> dict[str, Any] | None:
    try:
        blob = cache_file().read_bytes()
        if not blob.startswith(key):
            return None
        fields = marshal.loads(blob[len(key) :])
    except (OSError, EOFError, ValueError, TypeError):
        return None
    return fields if isinstance(fields, dict) and set(fields) == set(Lexicon.__annotations__) else None


def _write_cache(key: bytes, fields: dict[str, Any]) -> None:
    """Written beside, then renamed over the cache, so a reader never sees half of it. Best effort: a read-only
    install, or lists marshal cannot hold, leave no cache."""
    path = cache_file()
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        blob = key + marshal.dumps(fields)
        path.parent.mkdir(exist_ok=True)
        tmp.write_bytes(blob)
        os.replace(tmp, path)
    except (OSError, ValueError):
        try:
            tmp.unlink()
        except OSError:
            pass


def build_fields(source: bytes) -> dict[str, Any]:
    """The fields of the `Lexicon` read from relations.toml's bytes."""
    import tomllib

    text = source.decode("utf-8")
    if "\r" in text:  # read as a text file reads it (universal newlines)
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    data = tomllib.loads(text)
    neg = data["negation"]
    synonyms = _with_plurals(data["vocabulary"]["synonyms"])
    states: dict[tuple[str, ...], tuple[str, int, bool]] = {}
    state_classes: dict[tuple[str, ...], tuple[tuple[str, int, bool], ...]] = {}
    for cls, poles in data["states"].items():
        for key, pole, copula in (
            ("plus", 1, False),
            ("minus", -1, False),
            ("plus_copula", 1, True),
            ("minus_copula", -1, True),
        ):
            for w in poles.get(key, []):
                states.setdefault(_phrase(w), (cls, pole, copula))
                state_classes[_phrase(w)] = (*state_classes.get(_phrase(w), ()), (cls, pole, copula))
    classes: dict[tuple[str, ...], list[tuple[str, str, frozenset[str], bool]]] = {}
    for cls, spec in data["classes"].items():
        heads = frozenset(fold(h).lower() for h in spec.get("heads", []))
        cs = frozenset(fold(w).lower() for w in spec.get("case_sensitive", []))
        for w in spec["members"]:
            p = _phrase(w)
            canon = " ".join(p)
            canon = fold(data["vocabulary"]["abbreviations"].get(canon, canon)).lower()
            classes.setdefault(p, []).append((cls, canon, heads, canon in cs or " ".join(p) in cs))
    cal = data["calendar"]
    weekdays = {fold(w): i + 1 for i, names in enumerate(cal["weekdays"]) for w in names}
    months = {fold(w): i + 1 for i, names in enumerate(cal["months"]) for w in names}
    units: dict[str, tuple[str, float]] = {}
    for name, (dim, factor) in data["units"].items():
        units[name.rstrip("_")] = (dim, float(factor))
    return dict(
        raw=data,
        negation_cues=frozenset(neg["cues"]) | frozenset(neg["contractions"]),
        so_far=frozenset(neg["so_far"]),
        universal=frozenset(neg["universal"]),
        bare_verbs={form: forms[0] for forms in neg["bare_verbs"] for form in forms},
        not_before_verb=frozenset(neg["not_before_verb"]),
        not_negation=tuple(sorted((_phrase(p) for p in neg["not_negation"]), key=len, reverse=True)),
        verbal_negation=frozenset(neg["verbal"]) | frozenset(neg["contractions"]),
        neg_prefixes=tuple(sorted(neg["prefixes"], key=len, reverse=True)),
        predicate_endings=tuple(neg["predicate_endings"]),
        free_suffixes=tuple(neg["free_suffixes"]),
        clause_breaks=frozenset(data["clauses"]["breaks"]),
        conditions=frozenset(data["clauses"]["conditions"]),
        condition_phrases=tuple(_phrase(p) for p in data["clauses"]["condition_phrases"]),
        alt_markers=tuple(_phrase(p) for p in data["alternatives"]["markers"]),
        preference_verbs=frozenset(data["alternatives"]["preference_verbs"]),
        states=states,
        state_classes=state_classes,
        object_states=frozenset(c for c, spec in data["states"].items() if spec.get("needs_object")),
        strong_cues=tuple(sorted((_phrase(p) for p in data["supersession"]["strong"]), key=len, reverse=True)),
        continuing=tuple(_phrase(p) for p in data["supersession"]["continuing"]),
        remaining=tuple(_phrase(p) for p in data["supersession"]["remaining"]),
        retiring=tuple(sorted((_phrase(p) for p in data["supersession"]["retiring"]), key=len, reverse=True)),
        directional_cues=tuple(_phrase(p) for p in data["supersession"]["directional"]),
        becoming=tuple(_phrase(p) for p in data["supersession"]["becoming"]),
        change_markers=tuple(_phrase(p) for p in data["supersession"]["markers"]),
        hedges=tuple(_phrase(p) for p in data["hedges"]["phrases"]),
        attribution=tuple(sorted((_phrase(p) for p in data["hedges"]["attribution"]), key=len, reverse=True)),
        off_movers=frozenset(data["negation"]["off_movers"]),
        off_not_after=frozenset(data["negation"]["off_not_after"]),
        approx=tuple(_phrase(p) for p in data["hedges"]["approx"]),
        upper=tuple(sorted((_phrase(p) for p in data["bounds"]["upper"]), key=len, reverse=True)),
        limit_nouns=frozenset(data["bounds"]["limit_nouns"]),
        floor_words=frozenset(data["bounds"]["floor_words"]),
        rise_verbs=frozenset(data["bounds"]["rise_verbs"]),
        capacity_modals=frozenset(data["bounds"]["capacity_modals"]),
        lower=tuple(sorted((_phrase(p) for p in data["bounds"]["lower"]), key=len, reverse=True)),
        point_events=frozenset(data["bounds"]["point_events"]),
        point_preps=frozenset(data["bounds"]["point_preps"]),
        number_words={k: float(v) for k, v in data["numbers"]["words"].items()},
        ordinals={k: int(v) for k, v in data["numbers"]["ordinals"].items()},
        multipliers={k: float(v) for k, v in data["numbers"]["multipliers"].items()},
        units=units,
        glued_units=frozenset(data["units_glued"]["names"]),
        apart_units=frozenset(data["units_glued"].get("apart", [])),
        weekdays=weekdays,
        weekday_groups={_phrase(k): frozenset(v) for k, v in cal["weekday_groups"].items()},
        calendar_case=frozenset(cal["case_sensitive"]),
        months=months,
        seasons=dict(cal["seasons"]),
        quarters=dict(cal["quarters"]),
        dayparts={_phrase(k): (int(v[0]), int(v[1])) for k, v in cal["dayparts"].items()},
        clock_words={_phrase(k): int(v) for k, v in cal["clock_words"].items()},
        bounds_of_time=frozenset(cal["bounds_of_time"]),
        round_the_clock=tuple(sorted((_phrase(p) for p in cal["round_the_clock"]), key=len, reverse=True)),
        relative_days=frozenset(cal["relative_days"]),
        month_day_kinds=frozenset(cal["month_day_kinds"]),
        time_zones={k: int(v) for k, v in cal["time_zones"].items()},
        relative_before=frozenset(cal["relative_before"]),
        relative_after=frozenset(cal["relative_after"]),
        periods=frozenset(cal["periods"]),
        full_months=frozenset(fold(names[0]) for names in cal["months"]),
        short_month_context=frozenset(cal["short_month_context"]),
        dot_time_before=frozenset(cal["dot_time_before"]),
        particles=frozenset(data["vocabulary"]["particles"]),
        imperative_objects=frozenset(data["vocabulary"]["imperative_objects"]),
        event_prepositions=frozenset(data["vocabulary"]["event_prepositions"]),
        year_parts={k: (int(v[0]), int(v[1])) for k, v in cal["year_parts"].items()},
        freq_words={fold(k): float(v) for k, v in data["frequencies"]["words"].items()},
        every=frozenset(data["frequencies"]["every"]),
        rate_nouns=frozenset(data["frequencies"]["rate_nouns"]),
        other=frozenset(data["frequencies"]["other"]),
        classes=classes,
        class_max_len=max(len(p) for p in classes),
        places=frozenset(_phrase(p) for p in data["places"]["nouns"]),
        numbered_places=frozenset(data["places"]["numbered"]),
        street_types=frozenset(data["places"]["street_types"]),
        place_preps=frozenset(data["places"]["prepositions"]),
        spatial_preps=tuple(sorted((_phrase(p) for p in data["places"]["spatial"]), key=len, reverse=True)),
        honorifics=frozenset(data["people"]["honorifics"]),
        kin=frozenset(data["people"]["kin"]),
        own=frozenset(text_stem(w) for w in data["people"]["own"]),
        roles=tuple(_phrase(p) for p in data["roles"]["words"]),
        object_verbs=frozenset(data["roles"]["object_verbs"]),
        label_heads=frozenset(data["labels"]["heads"]),
        label_always=frozenset(data["labels"]["always"]),
        slot_nouns={k: frozenset(v) for k, v in data["slot_nouns"].items()},
        value_before=frozenset(data["roles"]["value_before"]),
        value_preps=frozenset(data["roles"]["value_preps"]),
        passive_value_preps=frozenset(data["roles"]["passive_value_preps"]),
        place_verbs=frozenset(data["roles"]["place_verbs"]),
        affiliation_verbs=frozenset(data["roles"]["affiliation_verbs"]),
        affiliation_preps=frozenset(data["roles"]["affiliation_preps"]),
        name_skip_adverbs=frozenset(data["roles"]["name_skip_adverbs"]),
        age_before=frozenset(data["ages"]["before"]),
        single_quantities=frozenset({"age"} if data["ages"].get("one_per_subject") else ())
        | frozenset({"grade"} if data["grades"].get("one_per_subject") else ()),
        grade_words=frozenset(data["grades"]["after_ordinal"]),
        grade_before_number=frozenset(data["grades"]["before_number"]),
        grade_max=int(data["grades"]["year_max"]),
        price_words=frozenset(data["amounts"]["price"]),
        amount_dims=frozenset(data["amounts"]["dimensions"]),
        currencies=frozenset(data["amounts"]["currencies"]),
        amount_glue=frozenset(data["amounts"]["glue"]),
        pending=frozenset(data["clauses"]["pending"]),
        day_range=frozenset(data["calendar"]["day_range"]),
        owners_self=frozenset(data["owners"]["self"]),
        owners_group=frozenset(data["owners"]["group"]),
        owners_subject=frozenset(data["owners"]["subject"]),
        another=frozenset(data["owners"]["another"]),
        passive_fillers=frozenset(data["passives"]["fillers"]),
        additions=tuple(_phrase(p) for p in data["additions"]["markers"]),
        additions_final=frozenset(data["additions"]["final"]),
        age_after=frozenset(data["ages"]["after"]),
        births=frozenset(data["ages"]["births"]),
        made_verbs=frozenset(data["ages"]["made"]),
        birth_glue=frozenset(data["ages"]["birth_glue"]),
        participles=frozenset(data["roles"]["participles"]),
        as_copulas=frozenset(data["roles"]["as_copulas"]),
        place_phrases=tuple(_phrase(p) for p in data["roles"]["place_phrases"]),
        role_holders=frozenset(data["roles"]["holders"]),
        additive_verbs=frozenset(data["roles"]["additive"]),
        span_starts=tuple(_phrase(p) for p in data["span_ends"]["start"]),
        span_ends=tuple(_phrase(p) for p in data["span_ends"]["end"]),
        nth_weekday={
            **{k: int(v) for k, v in data["numbers"]["ordinals"].items() if int(v) <= cal["nth_weekday_max"]},
            **{w: -1 for w in cal["nth_weekday_last"]},
        },
        nth_weekday_of=cal["nth_weekday_of"],
        single_classes=frozenset(c for c, spec in data["classes"].items() if spec.get("one_per_subject")),
        diet_eating=frozenset(data["diets"]["eating"]),
        diet_excludes={d: frozenset(text_stem(w) for w in ws) for d, ws in data["diets"]["excludes"].items()},
        when_words=frozenset(
            m.lower() for spec in data["classes"].values() if spec.get("when") for m in spec["members"] if " " not in m
        ),
        context_preps=frozenset(data["alternatives"]["context_preps"]),
        determiners=frozenset(data["negation"]["determiners"]),
        org_suffixes=frozenset(data["people"]["org_suffixes"]),
        saint_words=frozenset(data["people"]["saint_words"]),
        derivations=frozenset(data["vocabulary"]["derivations"]),
        **{name: frozenset(words) for name, words in data["grammar"].items() if isinstance(words, list)},
        period_offsets=dict(data["grammar"]["period_offsets"]),
        exclusive_before=frozenset(data["exclusive"]["before"]),
        exclusive_the_before=frozenset(data["exclusive"]["the_before"]),
        exclusive_after=frozenset(data["exclusive"]["after"]),
        exclusive_phrases=tuple(_phrase(p) for p in data["exclusive"]["phrases"]),
        exclusive_not_next=frozenset(data["exclusive"]["not_next"]),
        exclusive_not_prev=frozenset(data["exclusive"]["not_prev"]),
        apposed_classes=frozenset(data["people"]["apposed_classes"]),
        light=frozenset(data["vocabulary"]["light"]),
        compound_light=frozenset(data["vocabulary"]["compound_light"]),
        counted_light=frozenset(data["vocabulary"]["counted_light"]),
        # (by the word an acronym is read as, too: "GP" is "doctor" once the synonym table is applied)
        common_acronyms=frozenset(
            text_stem(x) for w in data["vocabulary"]["common_acronyms"] for x in (w, synonyms.get(w, w))
        ),
        subject_verbs=frozenset(data["vocabulary"]["subject_verbs"]),
        abbreviations={fold(k).lower(): fold(v).lower() for k, v in data["vocabulary"]["abbreviations"].items()},
        variants={**data["vocabulary"]["variants"], **synonyms},
    )


def _with_plurals(words: dict[str, str]) -> dict[str, str]:
    """Each word with its regular plural ("kid" -> "kids", "couch" -> "couches", "nanny" -> "nannies")."""
    out = dict(words)
    for w, v in words.items():
        if w.endswith(("s", "x", "ch", "sh")):
            plural = w + "es"
        elif w.endswith("y") and w[-2:-1] not in "aeiou":
            plural = w[:-1] + "ies"
        else:
            plural = w + "s"
        out.setdefault(plural, v)
    return out


#: Letters below this code point (Latin, IPA, Greek, Cyrillic) lose their accents when folded (Tomás -> Tomas). The
#: marks of other scripts are letters' own: Japanese voicing marks (カトウ / ガトウ, バス / パス are two names, two
#: words), the Devanagari virama. Dropped, they made two different values one claim, and the second was lost.
_ACCENTED_BELOW = 0x0530


def fold(s: str) -> str:
    """NFKC, typographic apostrophes and dashes made plain, accents of Latin, Greek and Cyrillic letters dropped
    (Tomás -> Tomas); the marks of other scripts kept, recomposed (NFC)."""
    s = unicodedata.normalize("NFKC", s).replace("\u2019", "'").replace("\u2018", "'")
    if s.isascii():
        return s
    out: list[str] = []
    accented = False  # whether the last base letter's marks are dropped
    for c in unicodedata.normalize("NFKD", s):
        if unicodedata.combining(c):
            if not accented:
                out.append(c)
            continue
        accented = ord(c) < _ACCENTED_BELOW
        out.append(c)
    return unicodedata.normalize("NFC", "".join(out))


def _canonical(word: str) -> str:
    """A word with its spelling variant folded, then its one-word expansion if it is an abbreviation."""
    lex = lexicon()
    w = lex.variants.get(word, word)
    exp = lex.abbreviations.get(w)
    return exp if exp and " " not in exp else w


@functools.cache
def _forms_of() -> dict[str, tuple[str, ...]]:
    """Each one-word canonical form with the written forms that fold to it (abbreviations and spelling variants)."""
    lex = lexicon()
    forms: dict[str, set[str]] = {}
    for w in (*lex.variants, *lex.abbreviations):
        if " " not in w and (c := _canonical(w)) != w:
            forms.setdefault(c, set()).add(w)
    return {c: tuple(sorted(v)) for c, v in forms.items()}


def spellings(word: str) -> tuple[str, ...]:
    """The other ways the vocabulary writes a word ("prod" -> production; "production" -> prod, "color" ->
    colour): a text index matches words as written, and these find a record that writes the same word another way."""
    w = word.lower()
    c = _canonical(w)
    if c == w and c not in _forms_of():
        # a plural of a word written other ways ("retrospectives" -> retro, "databases" -> db): the index stems the
        # plural itself, so the singular's other forms are the ones to add
        c = _canonical(next((s for s in _singulars(w) if _canonical(s) != s or s in _forms_of()), w))
    return tuple(f for f in dict.fromkeys((c, *_forms_of().get(c, ()))) if f != w)


def _singulars(word: str) -> tuple[str, ...]:
    """The singulars a regular English plural may have ("stories" -> story, "boxes" -> box, "bases" -> base)."""
    if word.endswith("ies") and len(word) > 4:
        return (word[:-3] + "y",)
    if word.endswith("es") and len(word) > 3:
        return (word[:-1], word[:-2])
    if word.endswith("s") and not word.endswith("ss") and len(word) > 2:
        return (word[:-1],)
    return ()


@functools.lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The comparison form of a word: lower-case, spelling variant folded, Porter2 stem."""
    w = word.lower().strip("'")
    if w.endswith("'s"):
        w = w[:-2]
    w = _canonical(w)  # "colour" -> color, "prod" -> production, "k8s" -> kubernetes
    if not w.isalpha():
        return w
    if w.endswith("es") and len(w) > 4 and w[-3] in "hsxz" and w[-4:-2] in ("sh", "ch", "ss", "sx", "hs"):
        w = w[:-2]  # "SSHes", "pushes", "matches"
    return text_stem(w)
