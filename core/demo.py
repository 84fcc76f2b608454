"""A realistic demo wiki: a few hundred records across zones, open conflicts, a few dozen pending verifications from
a handful of agent sessions, quiz items due today and tier candidates of every kind. Built entirely through the engine API, with injected time."""

from __future__ import annotations

import random
import shutil
from datetime import datetime, timedelta
from pathlib import Path

from .api import Engine
from .errors import BadInput
from .models import at
from .pages import atomic_write

PROJECTS = ["atlas", "harbor", "lumen", "quill", "orbit", "sable", "tessera", "wren"]
PEOPLE = ["Priya", "Marco", "Dana", "Kenji", "Ama", "Lucía", "Tomasz", "Noor"]

FACT_TEMPLATES = [
    ("fact", "{p} API rate limit", "The {p} public API is rate limited to {n} requests per minute per token."),
    (
        "fact",
        "{p} staging URL",
        "Staging for {p} lives behind the VPN at staging-{p}.internal and resets every Sunday night.",
    ),
    ("project", "{p} owner", "{who} owns the {p} service end to end, including on-call and release notes."),
    ("project", "{p} release train", "{p} ships on a two-week release train; the branch cut happens on Wednesdays."),
    (
        "preference",
        "{p} code review style",
        "For {p}, {who} prefers small pull requests under 400 lines with a linked issue.",
    ),
    ("preference", "{p} commit messages", "{who} wants imperative commit subjects under 72 characters for {p}."),
    ("decision", "{p} queue technology", "Decided: {p} uses a Redis stream for background jobs instead of Celery."),
    (
        "decision",
        "{p} auth provider",
        "Decided: {p} authenticates users through the company OIDC provider, not local passwords.",
    ),
    (
        "direction",
        "{p} direction",
        "The long-term direction for {p} is to split the monolith along the billing boundary.",
    ),
    (
        "insight",
        "{p} flaky tests",
        "Most flaky tests in {p} come from shared fixtures that leak temporary directories.",
    ),
    (
        "lesson",
        "{p} migration lesson",
        "Lesson from {p}: run schema migrations before deploying code that reads new columns.",
    ),
    ("milestone", "{p} beta launch", "{p} reached public beta with {n} design partners onboarded."),
    ("commitment", "{p} incident review", "{who} committed to publishing the {p} incident review with action items."),
    ("risk", "{p} vendor risk", "Risk: {p} depends on a single geocoding vendor with no fallback contract."),
    ("question", "{p} data retention", "Open question: how long should {p} keep raw request logs for debugging?"),
    ("fact", "{p} deploy target", "{p} deploys to the Frankfurt region on Kubernetes with {n} replicas at peak."),
    ("fact", "{p} error budget", "The {p} error budget is {n} minutes of downtime per quarter."),
    (
        "preference",
        "{p} handoff paths",
        "Always use absolute paths in {p} handoff artifacts so agents can reopen them.",
    ),
    ("fact", "{p} on-call rotation", "The {p} on-call rotation hands over on Mondays at 10:00 Berlin time."),
    ("draft", "{p} roadmap notes", "Draft notes for the {p} roadmap: search revamp, export API, audit log."),
    ("fact", "{p} log retention", "{p} keeps application logs for {n} days in the EU bucket, then deletes them."),
    ("preference", "{p} meeting slots", "{who} blocks mornings for deep work on {p}; meetings go after 14:00."),
    ("fact", "{p} feature flags", "Feature flags for {p} live in the shared flag service under the {p}- prefix."),
    ("project", "{p} design partner", "The main design partner for {p} is a logistics firm in Rotterdam."),
    ("insight", "{p} latency spikes", "Latency spikes in {p} line up with the nightly reindex, not with traffic."),
    ("lesson", "{p} rollback drill", "Lesson from {p}: rehearse the rollback before every major release."),
    ("milestone", "{p} first invoice", "{p} sent its first paid invoice; {who} celebrated with the team."),
    (
        "commitment",
        "{p} docs refresh",
        "{who} promised a refresh of the {p} onboarding docs before the next hire starts.",
    ),
    ("risk", "{p} bus factor", "Risk: only {who} knows how the {p} billing export works."),
    (
        "question",
        "{p} pricing tiers",
        "Open question: should {p} keep three pricing tiers or move to usage-based pricing?",
    ),
    (
        "decision",
        "{p} frontend stack",
        "Decided: the {p} dashboard stays server-rendered; no single-page rewrite this year.",
    ),
    ("direction", "{p} self-hosting", "Direction for {p}: offer a self-hosted edition once the audit log ships."),
    ("fact", "{p} CI duration", "A full {p} CI run takes about {n} minutes on the shared runners."),
    (
        "preference",
        "{p} status updates",
        "{who} wants {p} status updates as a short written note on Fridays, not a call.",
    ),
    ("fact", "{p} data residency", "Customer data for {p} must stay in the EU; backups go to a second EU region."),
    (
        "project",
        "{p} code owners",
        "Code owners for {p} are listed in CODEOWNERS; {who} reviews anything under billing/.",
    ),
    ("insight", "{p} support tickets", "Half of the {p} support tickets come from the CSV import screen."),
    ("lesson", "{p} load test", "Lesson from {p}: load tests must use production-sized datasets to mean anything."),
    (
        "fact",
        "{p} secrets handling",
        "{p} reads its secrets from the vault at start-up; nothing secret lives in the repo.",
    ),
    (
        "decision",
        "{p} incident channel",
        "Decided: every {p} incident gets its own chat channel and a named incident lead.",
    ),
]

QUIZ_QUESTIONS = {
    "{p} API rate limit": "How many requests per minute does the {p} public API allow per token?",
    "{p} release train": "On which weekday is the {p} release branch cut?",
    "{p} queue technology": "What runs {p}'s background jobs?",
    "{p} direction": "Along which boundary is the {p} monolith to be split?",
    "{p} error budget": "How large is the {p} error budget?",
}

ZONES = [
    ("private_self", "normal"),
    ("private_self", "do_not_export"),
    ("trusted_collaborator", "normal"),
    ("trusted_collaborator", "public_safe"),
    ("outside_contact", "public_safe"),
    ("paid_public", "public_safe"),
]

# The agent sessions of the last few days whose inferences wait for a person: (days ago, agent, kind of source).
SESSIONS = [
    (0, "agent:demo-scribe", "chat"),
    (1, "agent:meeting-notes", "standup"),
    (2, "agent:code-review", "code-review"),
    (5, "agent:inbox", "inbox"),
]
PENDING_SHARE = 0.4  # of a session's records, how many are inferences (the rest the person said outright)

CONFLICT_PAIRS = [
    # (key, title, existing, incoming, category)
    (
        "primary-database",
        "Primary database",
        "The primary database for billing is Postgres 16.",
        "The primary database for billing is MySQL 8.",
        "fact",
    ),
    (
        "q1-infra-budget",
        "Q1 infrastructure budget",
        "The Q1 infrastructure budget is $50k.",
        "The Q1 infrastructure budget is $80k.",
        "fact",
    ),
    (
        "docker-local-dev",
        "Docker for local development",
        "We use Docker Compose for local development of the billing stack.",
        "We do not use Docker Compose for local development of the billing stack.",
        "fact",
    ),
    (
        "release-day",
        "Release day",
        "Ship the billing release on Friday.",
        "Ship the billing release next Monday.",
        "commitment",
    ),
    (
        "api-versioning",
        "API versioning",
        "Decided: version the public API in the URL path (/v2/...).",
        "Decided: version the public API with an Accept header instead of the URL path.",
        "decision",
    ),
    (
        "support-hours",
        "Support hours",
        "Customer support is staffed until 18:00 CET on weekdays.",
        "Customer support is staffed until 22:00 CET on weekdays.",
        "fact",
    ),
]


DEMO_MARKER = ".memkeeper/demo-wiki"


def is_demo_wiki(root: Path) -> bool:
    """A folder `build_demo` made, so may replace."""
    return (root / DEMO_MARKER).is_file() or (root.name == ".demo-wiki" and (root / "entries").is_dir())


def build_demo(root: Path, *, now: datetime, records: int = 300, seed: int = 7) -> Engine:
    """(Re)build a demo wiki at `root`. An existing folder is replaced only when it is empty or a demo wiki this
    function built (it leaves `.memkeeper/demo-wiki` behind; a folder named `.demo-wiki`, `make demo`'s, built before
    the marker existed, counts too): `memkeeper demo ~/memory` must never delete a person's own wiki."""
    now = at(now)
    most = len(PROJECTS) * len(FACT_TEMPLATES)  # the distinct statements the bulk is made of
    if not 0 <= records <= most:
        # (a negative count sliced "all but N"; a larger one was cut to these without a word)
        raise BadInput(f"--records must be between 0 and {most} (the demo's distinct statements), not {records}")
    root = Path(root)
    if root.exists() and any(root.iterdir()):
        if not is_demo_wiki(root):
            what = "a memkeeper wiki the demo did not build" if (root / "entries").is_dir() else "not a demo wiki"
            raise ValueError(f"{root} exists and is {what}; refusing to replace it (name another folder)")
        shutil.rmtree(root)
    rng = random.Random(seed)
    eng = Engine.init(root, now=now - timedelta(days=420))
    atomic_write(root / DEMO_MARKER, "built by memkeeper demo: `memkeeper demo` may replace this folder\n")
    agent = "agent:demo-scribe"
    me = "human:demo"

    # Bulk: a few hundred records spread over ages, zones and categories. What agents inferred in the last few
    # days waits in the verification queue, each from one of a handful of sessions (one agent, one source file);
    # older records were stated by a person or confirmed on a past morning, the day after they were captured.
    sessions = {
        age: (actor, f"raw/{kind}-{(now - timedelta(days=age)).date().isoformat()}.md") for age, actor, kind in SESSIONS
    }
    confirm_later: dict[int, list[str]] = {}
    made = 0
    combos = [(t, p) for p in PROJECTS for t in FACT_TEMPLATES]
    rng.shuffle(combos)
    for i, ((cat, title_t, text_t), p) in enumerate(combos[:records]):
        who = PEOPLE[(i * 3 + len(p)) % len(PEOPLE)]
        zone, sens = ZONES[rng.randrange(len(ZONES))] if rng.random() < 0.45 else ZONES[0]
        name = p.capitalize()
        title = title_t.format(p=name)
        text = text_t.format(p=name, who=who, n=rng.choice([3, 5, 12, 40, 120, 600]))
        question = QUIZ_QUESTIONS.get(title_t)
        age = rng.choice([0, 1, 2, 5, 9, 20, 45, 90, 150, 200, 260, 320, 400])
        inferred = rng.random() < (PENDING_SHARE if age in sessions else 0.6)
        actor, ref = sessions.get(age, (agent, f"raw/session-{p}-{age}.md"))
        r = eng.capture(
            text,
            now=now - timedelta(days=age, hours=rng.randrange(24)),
            actor=actor,
            title=title,
            category=cat,
            zone=zone,
            sensitivity=sens,
            source_type="agent_inferred" if inferred else "user_stated",
            source_ref=f"{ref}#L{10 + i % 90}",
            confidence=round(rng.uniform(0.55, 0.9), 2),
            recall=[p, cat],
            quiz_question=question.format(p=name) if question else None,
        )
        made += r.status in ("captured", "consolidated")
        if inferred and age not in sessions and r.status == "captured":
            confirm_later.setdefault(age, []).append(r.details["memory_id"])
    for age, ids in sorted(confirm_later.items(), reverse=True):  # past mornings, oldest first
        eng.confirm_many(ids, now=now - timedelta(days=age) + timedelta(days=1), actor=me)

    # Near-duplicates that consolidate.
    review_actor, review_ref = sessions[2]
    for p in PROJECTS[:4]:
        eng.capture(
            f"Always use absolute paths in {p.capitalize()} handoff artifacts so agents can reopen them.",
            now=now - timedelta(days=2),
            actor=review_actor,
            title=f"{p.capitalize()} handoff paths",
            category="preference",
            source_ref=f"{review_ref}#L3",
        )

    # Open conflicts of several types.
    for key, title, old, new, cat in CONFLICT_PAIRS:
        eng.capture(
            old,
            now=now - timedelta(days=30),
            actor=agent,
            key=key,
            title=title,
            category=cat,
            source_type="user_stated",
            source_ref="raw/planning-2026-10.md#L12",
        )
        eng.capture(
            new,
            now=now - timedelta(days=1),
            actor="agent:meeting-notes",
            key=key,
            title=title,
            category=cat,
            source_ref="raw/standup-2026-11-28.md#L4",
        )

    # Two agents without a shared key: a hedged claim about where something is, held as a possible conflict.
    eng.capture(
        "The signed billing contracts are in the finance cabinet.",
        now=now - timedelta(days=12),
        actor=agent,
        title="Billing contracts",
        source_ref="raw/office-move.md#L7",
    )
    eng.capture(
        "I think the signed billing contracts are kept in the legal drawer.",
        now=now - timedelta(days=2),
        actor="agent:meeting-notes",
        title="Where billing contracts are",
        source_ref="raw/standup-2026-11-27.md#L9",
    )

    # A superseded, old record (automatic tier candidate) via a resolved conflict in the past.
    eng.capture(
        "The analytics warehouse is Redshift.",
        now=now - timedelta(days=500),
        actor=agent,
        key="analytics-warehouse",
        title="Analytics warehouse",
        source_type="user_stated",
        source_ref="raw/arch-2025.md#L3",
    )
    r = eng.capture(
        "The analytics warehouse is BigQuery.",
        now=now - timedelta(days=400),
        actor=agent,
        key="analytics-warehouse",
        title="Analytics warehouse",
        source_type="user_stated",
        source_ref="raw/arch-2026.md#L8",
    )
    if r.status == "conflict":
        eng.resolve_conflict(r.details["conflict_id"], "incoming", now=now - timedelta(days=399), actor=me)

    # Quiz history so items are due today: answered correctly 3 days ago (box 1 → due today), wrong yesterday.
    cards = eng.quiz_session("demo", now=now - timedelta(days=3))
    for card in cards[:4]:
        eng.quiz_record(card.memory_id, "good", now=now - timedelta(days=3), actor=me, person="demo")
    cards = eng.quiz_session("demo", now=now - timedelta(days=1))
    for card in cards[:2]:
        if card.reason == "new":
            eng.quiz_record(card.memory_id, "again", now=now - timedelta(days=1), actor=me, person="demo")

    eng.compile(now=now, actor=agent)
    return eng
