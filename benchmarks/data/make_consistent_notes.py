"""Write consistent_notes.jsonl: two corpora of agent memory notes in which no note contradicts another.

What it measures: how many conflicts `capture` opens on a body of notes that never contradict each other, written
the way long-lived agents write memory for one person over about three months of sessions (2026-09-01 to
2026-11-30). Every note is written here, in this file; nothing is drawn at random, so running this again rewrites
the file byte for byte.

Two personas, each its own corpus, captured into a wiki of its own in time order:
- persona "a" (Lena Kowalczyk, a staff engineer in Leeds, her team, services, family and home): half `dev`;
- persona "b" (Hannah Okafor, a product manager in Toronto, her team, products, family and running): half `heldout`.
The half is fixed by persona, before any measurement: notes are captured into one wiki per corpus, so a split note
by note would put held-out notes in the wiki that dev notes are measured against. Each note also carries the
note-level `split` (dev iff int(sha256(id).hexdigest(), 16) % 2 == 0, else heldout), for any use that reads notes
one at a time; the bench (benchmarks/consistent.py) measures by `half`.

Every note is true together with every other: notes about one thing agree, or a later one adds detail; parallel
attributes belong to different projects, services, people or places; event logs are true at their own time;
quantities that differ do so by context (staging / prod, weekday / weekend, a year, per person / per team) or by unit.
Nothing is superseded: no note says a thing moved, changed, or is no longer so.

Usage: python benchmarks/data/make_consistent_notes.py [output_path]
"""

from __future__ import annotations

import hashlib
import json
import sys
import textwrap
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

OUT = Path(__file__).resolve().with_name("consistent_notes.jsonl")
YEAR = 2026
FIRST_DAY, LAST_DAY = "09-01", "11-30"
DAY_START, DAY_END = 8 * 60 + 30, 21 * 60 + 30  # notes of a day are spread between 08:30 and 21:30 unless timed

PERSONAS = {"a": "dev", "b": "heldout"}  # persona -> half, fixed before measuring
ZONES = {"a": "Europe/London", "b": "America/Toronto"}  # `at` is local time with its UTC offset
ZONE, SENSITIVITY = "private_self", "normal"  # one zone and tier: every note can meet every other

# Agents of persona a.
CODER, ASSIST, SCHED, RESEARCH = "agent:coder", "agent:assistant", "agent:scheduler", "agent:research"
# Agents of persona b.
PM, HELPER, CAL, COACH = "agent:pm-copilot", "agent:assistant", "agent:calendar", "agent:coach"


def _clean(text: str) -> str:
    return textwrap.dedent(text).strip("\n").rstrip() if "\n" in text else text.strip()


def _h(s: str) -> int:
    return int(hashlib.sha256(s.encode("utf-8")).hexdigest(), 16)


class Writer:
    """Collects one persona's notes in the order they were written; `day` sets the date of the notes that follow."""

    def __init__(self, persona: str) -> None:
        self.persona = persona
        self.date = ""
        self.rows: list[dict] = []

    def day(self, mmdd: str) -> None:
        if not (FIRST_DAY <= mmdd <= LAST_DAY):
            raise ValueError(f"day {mmdd} out of range")
        self.date = mmdd

    def __call__(
        self,
        agent: str,
        title: str,
        text: str,
        cat: str = "fact",
        ref: str | None = None,
        at: str | None = None,
        source: str = "agent_inferred",
    ) -> None:
        if not self.date:
            raise ValueError("a note before any day")
        self.rows.append(
            {
                "date": self.date,
                "agent": agent,
                "title": title,
                "text": _clean(text),
                "category": cat,
                "ref": ref,
                "time": at,
                "source_type": source,
            }
        )


def _times(rows: list[dict], zone: str) -> list[str]:
    """Minutes of the day for each note: a timed note keeps its time; the others of its day are spread evenly
    between the day's start (or the previous timed note) and its end (or the next timed note)."""
    out: list[str] = []
    i = 0
    while i < len(rows):
        j = i
        while j < len(rows) and rows[j]["date"] == rows[i]["date"]:
            j += 1
        day = rows[i:j]
        mins: list[int | None] = [None if r["time"] is None else _minutes(r["time"]) for r in day]
        k = 0
        while k < len(day):
            if mins[k] is not None:
                k += 1
                continue
            e = k
            while e < len(day) and mins[e] is None:
                e += 1
            lo = DAY_START if k == 0 else (mins[k - 1] or DAY_START) + 1
            hi = DAY_END if e == len(day) else (mins[e] or DAY_END) - 1
            span = max(hi - lo, 0)
            slot = span / (e - k)
            for q in range(k, e):
                jitter = _h(day[q]["text"]) % max(int(slot * 0.6), 1)
                mins[q] = lo + int((q - k) * slot) + jitter
            k = e
        for r, m in zip(day, mins, strict=True):
            assert m is not None
            month, day_ = (int(x) for x in r["date"].split("-"))
            local = datetime(YEAR, month, day_, m // 60, m % 60, tzinfo=ZoneInfo(zone))
            out.append(local.isoformat())
        i = j
    return out


def _minutes(hhmm: str) -> int:
    h, m = hhmm.split(":")
    return int(h) * 60 + int(m)


def _ref(persona: str, row: dict, n: int) -> str | None:
    """An explicit source ref, else the agent's session of that day for about three notes in five."""
    if row["ref"]:
        return row["ref"]
    if _h(f"{persona}:{n}:{row['text']}") % 5 >= 3:
        return None
    return f"session:{row['agent'].split(':')[1]}/{YEAR}{row['date'].replace('-', '')}"


def build() -> list[dict]:
    out: list[dict] = []
    for persona, writers in (("a", PERSONA_A), ("b", PERSONA_B)):
        w = Writer(persona)
        for write in writers:
            write(w)
        # The month's sessions first, then the notes written alongside them: a stable sort by day keeps each day's
        # notes in the order they were written.
        w.rows.sort(key=lambda r: r["date"])
        times = _times(w.rows, ZONES[persona])
        # A timed note may be written after notes of its day that come later in the day: order by time, stably.
        timed = sorted(zip(w.rows, times, strict=True), key=lambda x: datetime.fromisoformat(x[1]))
        for n, (row, at) in enumerate(timed, 1):
            nid = f"cons-{persona}-{n:04d}"
            note = {
                "id": nid,
                "persona": persona,
                "half": PERSONAS[persona],
                "split": "dev" if _h(nid) % 2 == 0 else "heldout",
                "at": at,
                "agent": row["agent"],
                "title": row["title"],
                "text": row["text"],
                "category": row["category"],
                "zone": ZONE,
                "sensitivity": SENSITIVITY,
                "source_type": row["source_type"],
            }
            ref = _ref(persona, row, n)
            if ref:
                note["source_ref"] = ref
            out.append(note)
    return out


# ---------------------------------------------------------------------------------------------------------------------
# Persona a: Lena Kowalczyk, staff engineer at Tallyworks (Leeds), tech lead of Atlas. Agents: coder, assistant,
# scheduler, research.


def a_september(n: Writer) -> None:
    n.day("09-01")
    n(
        ASSIST,
        "About Lena",
        "Lena Kowalczyk is a staff engineer at Tallyworks, on the Platform team, and the tech lead of Atlas, the "
        "double-entry ledger service.",
        source="user_stated",
    )
    n(
        ASSIST,
        "Household",
        "Lena lives in Chapel Allerton, Leeds, with her partner Sam Okoye, their children Noor (9) and Felix (6), and "
        "Biscuit, a cocker spaniel.",
        source="user_stated",
    )
    n(
        ASSIST,
        "Where Lena works from",
        "Lena works from the Leeds office on Tuesdays, Wednesdays and Thursdays, and from home on Mondays and Fridays.",
        source="user_stated",
    )
    n(
        CODER,
        "Atlas stack",
        "Atlas is a Python 3.12 service (FastAPI, SQLAlchemy 2, psycopg 3) backed by Postgres 16 on RDS in eu-west-2. "
        "Repo: tallyworks/atlas.",
    )
    n(CODER, "Atlas release train", "Atlas's regular release train goes out on Fridays at 14:00 UK time.")
    n(
        SCHED,
        "1:1 with Ana",
        "Lena's 1:1 with her manager Ana Ferreira (Director of Platform Engineering) is weekly, Tuesdays 15:00-15:30, "
        "on video; Ana is based at London HQ.",
        ref="calendar:series/ana-lena-1-1",
    )
    n(
        ASSIST,
        "Bin collections",
        "Bins in Lena's street go out on Tuesdays: the green recycling bin and the black general-waste bin alternate "
        "fortnightly. Green bin collected today, 1 Sep.",
    )
    n(
        ASSIST,
        "Morning coffee",
        "Lena has one flat white with oat milk in the morning and no coffee after 2pm.",
        cat="preference",
        source="user_stated",
    )

    n.day("09-02")
    n(CODER, "atlas-api deployment", "atlas-api listens on port 8080 and runs 6 replicas in prod and 2 in staging.")
    n(CODER, "atlas-worker", "atlas-worker consumes the SQS queue atlas-postings. Replicas: 4 in prod, 1 in staging.")
    n(
        CODER,
        "Atlas and Kafka",
        "Atlas does not use Kafka: postings arrive over SQS, and the ledger publishes nothing to the Kafka cluster.",
    )
    n(
        SCHED,
        "Noor swimming",
        "Noor has swimming lessons on Wednesdays, 17:30-18:15, at Scott Hall Leisure Centre.",
        ref="calendar:series/noor-swimming",
    )
    n(ASSIST, "Ana and coffee", "Ana doesn't drink coffee; when she visits Leeds, have green tea in.", cat="preference")
    n(
        CODER,
        "Orbit overview",
        "Orbit is the mobile app backend: Go 1.23, gRPC, Postgres 15. Owned by Chidi Nwosu's team, not Platform.",
    )

    n.day("09-03")
    n(CODER, "Orbit deploy day", "Orbit deploys to production on Mondays.")
    n(
        CODER,
        "Quill deploys",
        "Quill, the internal docs tool (TypeScript, Next.js), has no release train: it deploys on every merge to main.",
    )
    n(
        SCHED,
        "School day",
        "Bankside Primary starts at 08:45 and finishes at 15:15. Lena does the 15:15 pickup on Mondays and Fridays; "
        "on Wednesdays Sam leaves work early, collects both and takes Noor to swimming; on Tuesdays and Thursdays "
        "they stay at the after-school club until 17:30 and Sam collects them.",
    )
    n(
        ASSIST,
        "Dog walker",
        "Paws & Go walk Biscuit at 12:00 on Tuesdays, Wednesdays and Thursdays, Lena's office days.",
    )
    n(
        RESEARCH,
        "Postgres driver benchmark",
        "Benchmarked asyncpg against psycopg 3 (async) on Atlas's posting path: 2,520 vs 2,400 postings/s, within 5%. "
        "Not worth a driver change; Atlas keeps psycopg 3.",
        cat="decision",
    )

    n.day("09-04")
    n(
        CODER,
        "Atlas log retention",
        "Atlas keeps application logs in CloudWatch for 30 days in prod and 7 days in staging.",
    )
    n(
        ASSIST,
        "Noor's allergy",
        "Noor is allergic to peanuts and carries an EpiPen in her school bag; a second pen is kept in the school "
        "office.",
        source="user_stated",
    )
    n(ASSIST, "Felix allergies", "Felix has no known allergies.", source="user_stated")
    n(
        CODER,
        "Atlas v2.14.0",
        "Released Atlas v2.14.0 to prod on Fri 4 Sep at 14:05: idempotency keys on POST /postings.",
        at="14:20",
        ref="github:tallyworks/atlas/releases/v2.14.0",
    )
    n(SCHED, "Parkrun", "Lena runs Roundhay parkrun most Saturdays at 09:00.")

    n.day("09-05")
    n(ASSIST, "Parkrun 5 Sep", "Roundhay parkrun, 5 Sep: 25:40.", at="10:05")
    n(
        ASSIST,
        "Felix football",
        "Felix plays Under-7s football at Chapel Allerton Park on Saturdays at 09:00; Sam takes him while Lena runs "
        "parkrun.",
    )
    n(
        SCHED,
        "Noor piano",
        "Noor's piano lesson is on Saturdays at 10:30 with Mrs Adeyemi, 45 minutes.",
        ref="calendar:series/noor-piano",
    )

    n.day("09-06")
    n(
        ASSIST,
        "Irene's 70th",
        "Lena's mum Irene lives in Harrogate and turns 70 on 14 Sep. Family lunch planned for Sunday 13 Sep.",
    )
    n(
        ASSIST,
        "Week ahead (7-13 Sep)",
        """
      Week ahead, 7-13 Sep:
      - Mon: Atlas planning 11:00, school pickup
      - Tue: office; 1:1 with Ana 15:00; black bin out
      - Wed: office; Noor swimming 17:30
      - Thu: office; physio 08:00 (first of the new block); mentoring Dara 11:00
      - Fri: Atlas release 14:00
      - Sat: parkrun, football, piano
      - Sun: Irene's birthday lunch in Harrogate
      """,
    )

    n.day("09-07")
    n(
        SCHED,
        "Atlas planning cadence",
        "Atlas planning is every other Monday at 11:00 with Farid Haddad (Atlas PM).",
        ref="calendar:series/atlas-planning",
    )
    n(
        CODER,
        "Atlas planning 7 Sep",
        "Atlas planning, 7 Sep: sprint goals are the read-replica RFC draft and cutting posting p95. Farid wants the "
        "reconciliation export in October.",
        ref="notes:atlas-planning/2026-09-07",
    )
    n(CODER, "orbit-gateway 1.42", "Seen in #deploys: Orbit shipped orbit-gateway 1.42 on Mon 7 Sep.")
    n(
        ASSIST,
        "Monday pickup",
        "Mondays are home days for Lena, so she does the school pickup at 15:15 before her late-afternoon focus block.",
    )

    n.day("09-08")
    n(
        SCHED,
        "1:1 with Ana, 8 Sep",
        "1:1 with Ana, 8 Sep: the staff promotion case timeline and the read-replica RFC. Ana wants a one-page pre-read "
        "before the next 1:1.",
        at="15:40",
    )
    n(CODER, "Atlas SLOs", "Atlas SLOs: 99.9% availability per calendar month; posting p95 latency under 250 ms.")
    n(
        ASSIST,
        "Ana's working style",
        "Ana prefers Slack DMs to email and likes a written pre-read before any decision meeting.",
        cat="preference",
    )
    n(ASSIST, "Black bin 8 Sep", "Black bin (general waste) collected Tue 8 Sep.")

    n.day("09-09")
    n(
        CODER,
        "Atlas timeouts",
        "Atlas timeouts: load balancer idle timeout 30 s; Postgres statement_timeout 5 s for the api role and 120 s for "
        "the batch role.",
    )
    n(
        RESEARCH,
        "RDS replica lag",
        "RDS read replicas for Postgres 16 in eu-west-2 keep lag under 1 s at Atlas's write volume (about 300 writes/s "
        "at peak) in AWS's published numbers and in the staging test; the metric to alarm on is ReplicaLag.",
    )
    n(ASSIST, "Noor swimming badge", "Noor passed her Stage 5 swimming badge on Wed 9 Sep.", at="19:00")
    n(
        CODER,
        "Dara Quinn",
        "Dara Quinn joined the Atlas team in June 2026 as a junior engineer. Lena mentors her: 30 minutes every other "
        "Thursday at 11:00.",
    )

    n.day("09-10")
    n(
        ASSIST,
        "Physio",
        "Lena sees Priya at Headingley Physio about her left knee (patellofemoral pain), every other Thursday at 08:00. "
        "First session of this block: 10 Sep.",
        source="user_stated",
    )
    n(
        SCHED,
        "Mentoring Dara, 10 Sep",
        "Mentoring with Dara, 10 Sep: writing Alembic migrations safely. She'll pair with Marta on the next schema "
        "change.",
    )
    n(CODER, "Atlas CI", "Atlas CI runs on GitHub Actions; the full test suite takes about 11 minutes.")
    n(CODER, "Standups", "Atlas standup is at 09:45 on weekdays. Orbit's is at 10:15; Lena isn't in that one.")

    n.day("09-11")
    n(
        CODER,
        "Atlas hotfixes",
        "Atlas hotfixes may go out on any weekday, with approval from Lena or Ben Ashworth (SRE lead).",
    )
    n(
        ASSIST,
        "Sam's work",
        "Sam is an architect at Hollis & Pike in Leeds city centre: in the office Monday to Thursday, at home on "
        "Fridays.",
        source="user_stated",
    )
    n(
        SCHED,
        "Irene's birthday lunch booking",
        "Booked a table for 8 at The Old Bell, Harrogate, Sunday 13 Sep at 13:00, for Irene's 70th.",
        ref="email:booking-old-bell",
    )
    n(
        CODER,
        "Atlas v2.15.0",
        "Atlas v2.15.0 released 11 Sep: new GET /balances/history endpoint behind the balances_history flag.",
        at="15:10",
        ref="github:tallyworks/atlas/releases/v2.15.0",
    )

    n.day("09-12")
    n(ASSIST, "Parkrun 12 Sep", "Parkrun 12 Sep (Roundhay): 25:18.", at="10:10")
    n(ASSIST, "Parkrun PB", "Lena's parkrun personal best is 24:10, set in April 2024.", source="user_stated")
    n(ASSIST, "Noor piano exam", "Noor is preparing for her Grade 2 piano exam, expected in late November.")

    n.day("09-13")
    n(
        ASSIST,
        "Irene's lunch, 13 Sep",
        "Irene's 70th birthday lunch at The Old Bell on 13 Sep: Tom and Jess came up from Bristol. Irene loved the "
        "photo book.",
        at="17:00",
    )
    n(
        ASSIST,
        "Tom",
        "Lena's brother Tom lives in Bristol with his partner Jess. Tom's birthday is 12 June.",
        source="user_stated",
    )

    n.day("09-14")
    n(
        CODER,
        "Atlas on-call",
        "Atlas on-call is a weekly rotation handing over on Mondays at 10:00. Lena is on call 14-21 Sep.",
        ref="pagerduty:schedule/atlas-primary",
    )
    n(ASSIST, "Flowers for Irene", "Sent flowers to Irene for her birthday today, 14 Sep, from Lena, Sam and the kids.")
    n(CODER, "Orbit on-call", "Orbit's on-call is a separate rota that hands over on Wednesdays at 10:00.")
    n(CODER, "orbit-gateway 1.43", "orbit-gateway 1.43 went out on Mon 14 Sep (Orbit's weekly deploy).")

    n.day("09-15")
    n(
        CODER,
        "RFC-031",
        "RFC-031, by Lena: serve Atlas's reporting endpoints from an RDS read replica. Goes to the architecture forum "
        "on 29 Sep.",
        ref="github:tallyworks/rfcs/pull/31",
    )
    n(
        SCHED,
        "1:1 with Ana, 15 Sep",
        "1:1 with Ana, 15 Sep: shared the read-replica pre-read; Ana is happy for RFC-031 to go to the architecture "
        "forum on 29 Sep.",
        at="15:40",
    )
    n(
        ASSIST,
        "Interview 15 Sep",
        "Lena ran the system design round for a senior backend candidate on 15 Sep; feedback submitted in Greenhouse.",
    )
    n(ASSIST, "Green bin 15 Sep", "Green recycling bin collected Tue 15 Sep.")

    n.day("09-16")
    n(
        CODER,
        "Platform cloud budget",
        "Platform cloud budget: £410k for 2025 (£398k spent); the 2026 budget was approved at £455k.",
    )
    n(CODER, "Atlas AWS cost", "Atlas costs about £14k a month on AWS in prod and about £2.1k a month in staging.")
    n(ASSIST, "Biscuit's food", "Biscuit gets 120 g of dry food twice a day, morning and evening.")

    n.day("09-17")
    n(
        CODER,
        "On-call log 17 Sep",
        "On-call, night of 16-17 Sep: one low-priority alert, atlas-worker queue depth above 500 for 4 minutes at "
        "02:14; cleared by itself.",
    )
    n(ASSIST, "Lena's diet", "Lena is pescatarian: she eats fish but no meat.", cat="preference", source="user_stated")
    n(ASSIST, "Sam food and drink", "Sam eats everything, but doesn't drink coffee at all; tea only.", cat="preference")
    n(
        CODER,
        "Atlas team",
        "The Atlas team is four engineers (Lena, Marta Silva, Kwame Boateng, Dara Quinn) plus Farid as PM.",
    )

    n.day("09-18")
    n(SCHED, "Physio next", "Next physio with Priya: Thu 24 Sep, 08:00.")
    n(
        ASSIST,
        "Weekend plan 19-20 Sep",
        "Weekend: Saturday football, parkrun and piano as usual; Sunday roast at home with Sam's sister Adaeze.",
    )
    n(
        CODER,
        "Atlas v2.16.0",
        "Atlas v2.16.0 released Fri 18 Sep: composite index on postings (account_id, booked_at).",
        at="14:40",
        ref="github:tallyworks/atlas/releases/v2.16.0",
    )

    n.day("09-19")
    n(ASSIST, "Parkrun 19 Sep", "Parkrun, 19 Sep: 25:05 at Roundhay.")

    n.day("09-20")
    n(
        ASSIST,
        "Adaeze",
        "Sam's sister Adaeze lives in Manchester and works as a paediatric nurse. Her birthday is 30 August.",
    )
    n(ASSIST, "Sunday roast", "Adaeze came for Sunday roast on 20 Sep; Lena had the salmon, everyone else the chicken.")

    n.day("09-21")
    n(
        CODER,
        "INC-2291",
        "INC-2291, 21 Sep, 06:40-07:18 UK (38 minutes): atlas-worker fell behind on atlas-postings. v2.16.0's new "
        "composite index made one balance query pick a sequential scan. Mitigated by scaling atlas-worker to 8 "
        "replicas for the duration.",
        ref="incident:INC-2291",
    )
    n(
        SCHED,
        "Atlas planning 21 Sep",
        "Atlas planning, 21 Sep: the reconciliation export is committed for the 16 Oct release; Farid writes the "
        "acceptance criteria.",
    )
    n(CODER, "On-call handover 21 Sep", "Handed Atlas on-call to Kwame Boateng at 10:00 on 21 Sep.")

    n.day("09-22")
    n(
        CODER,
        "Atlas v2.16.1",
        "Hotfix Atlas v2.16.1 deployed Tue 22 Sep at 11:30: a planner hint for the balance query. atlas-worker "
        "scaled back to its usual 4 prod replicas afterwards.",
        ref="github:tallyworks/atlas/releases/v2.16.1",
    )
    n(
        SCHED,
        "1:1 with Ana, 22 Sep",
        "1:1 with Ana, 22 Sep: INC-2291 write-up and the promotion case. Ana will be in the Leeds office on Thu 1 Oct.",
        at="15:40",
    )
    n(ASSIST, "Black bin 22 Sep", "Black bin went out for Tuesday 22 Sep.")

    n.day("09-23")
    n(
        CODER,
        "INC-2291 postmortem",
        "INC-2291 postmortem, 23 Sep. Actions: Marta adds a query-plan check in CI for the five hottest queries; Ben "
        "reviews the queue-depth and ReplicaLag alarms.",
        ref="incident:INC-2291/postmortem",
    )
    n(
        RESEARCH,
        "pg_hint_plan on RDS",
        "pg_hint_plan is available on RDS for Postgres 16 as an extension; hints go in a leading comment of the query. "
        "Useful as a stopgap, not a fix: the plan check in CI is the lasting guard.",
    )
    n(ASSIST, "Noor swimming 23 Sep", "Noor's swimming group on Wednesdays has 8 children and one instructor.")

    n.day("09-24")
    n(
        ASSIST,
        "Physio 24 Sep",
        "Physio, 24 Sep: knee improving. Keep the step-downs and add single-leg squats, 3 sets of 12, every other day.",
    )
    n(
        SCHED,
        "Mentoring Dara, 24 Sep",
        "Mentoring with Dara, 24 Sep: code review etiquette. She is taking the reconciliation export's CSV writer.",
        at="11:40",
    )
    n(CODER, "Atlas owners", "Within Atlas, Marta Silva owns the postings API and Kwame Boateng owns atlas-worker.")
    n(ASSIST, "Commute", "Lena cycles to the Leeds office: 6.5 km, about 25 minutes.")

    n.day("09-25")
    n(
        CODER,
        "Platform team",
        "Platform team, 8 people: Lena, Marta, Kwame and Dara (Atlas), Ben Ashworth and Ollie Grant (SRE), Greta Lund "
        "(security) and Hugo Martins (Quill).",
    )
    n(
        CODER,
        "Training budget",
        "Training budget is £1,500 per person per year; the Platform team's total for 2026 is £12,000.",
    )
    n(
        CODER,
        "Atlas v2.17.0",
        "Atlas v2.17.0 out on 25 Sep: plan check for the hottest queries in CI (from INC-2291) and pagination on "
        "/accounts.",
        at="14:30",
        ref="github:tallyworks/atlas/releases/v2.17.0",
    )

    n.day("09-26")
    n(ASSIST, "Parkrun 26 Sep", "Parkrun 26 Sep: 24:58, first time under 25 minutes this year.")
    n(ASSIST, "Felix football 26 Sep", "Felix scored his first goal for the Under-7s on 26 Sep.")

    n.day("09-27")
    n(ASSIST, "Lisbon half-term", "Family holiday to Lisbon over the October half-term, late October.")
    n(
        ASSIST,
        "Seat preferences",
        "On flights Lena prefers an aisle seat; Sam prefers the window.",
        cat="preference",
        source="user_stated",
    )

    n.day("09-28")
    n(
        CODER,
        "orbit-gateway 1.44",
        "Orbit deployed orbit-gateway 1.44 on Mon 28 Sep: session refresh when the app resumes.",
    )
    n(CODER, "Orbit sessions", "Orbit keeps mobile sessions in Redis with a 30-day TTL.")
    n(
        SCHED,
        "London trip",
        "Lena is at London HQ on 6-7 Oct for the Platform offsite.",
        ref="calendar:event/platform-offsite",
    )
    n(ASSIST, "Lena's birthday", "Lena's birthday is 27 February.", source="user_stated")

    n.day("09-29")
    n(
        CODER,
        "RFC-031 approved",
        "RFC-031 (read replica for Atlas reporting endpoints) approved at the architecture forum on 29 Sep, with one "
        "condition: alarm when ReplicaLag exceeds 5 s.",
        cat="decision",
        ref="github:tallyworks/rfcs/pull/31",
    )
    n(
        SCHED,
        "1:1 with Ana, 29 Sep",
        "1:1 with Ana, 29 Sep: RFC-031 went through. Promotion case goes to the calibration panel in mid-November.",
        at="15:40",
    )
    n(ASSIST, "Green bin 29 Sep", "Green bin collected Tue 29 Sep.")
    n(
        ASSIST,
        "Harbor intro",
        "Eun-ji Park leads Harbor, the data pipeline (Airflow 2.9, dbt, Snowflake); it sits in the Data team.",
    )

    n.day("09-30")
    n(CODER, "Harbor schedule", "Harbor's nightly DAG runs at 02:00 UTC; dbt model changes deploy on Wednesdays.")
    n(
        CODER,
        "Harbor sources",
        "Harbor consumes Orbit's Kafka topics and a nightly Atlas export dropped in S3 at 01:30 UTC.",
    )
    n(ASSIST, "Noor swimming 30 Sep", "Noor's swimming on 30 Sep was cancelled: pool closed for maintenance.")
    n(
        ASSIST,
        "September summary",
        """
      September in short (for Lena):
      - Atlas: v2.14.0 to v2.17.0 released, plus hotfix v2.16.1 after INC-2291
      - RFC-031 approved on 29 Sep
      - On call 14-21 Sep
      - Parkrun: best of the month 24:58 (26 Sep)
      - Irene's 70th lunch on 13 Sep
      """,
    )


def a_october(n: Writer) -> None:
    n.day("10-01")
    n(SCHED, "Ana in Leeds", "Ana is in the Leeds office today, Thu 1 Oct; lunch with the Atlas team at 12:30.")
    n(
        CODER,
        "Atlas money amounts",
        "Atlas stores amounts as integer minor units (pence, cents) in bigint columns, with an ISO 4217 currency code "
        "beside each amount. No floats anywhere in the ledger.",
        cat="decision",
    )
    n(ASSIST, "School photos", "School photo day at Bankside was 1 Oct; proofs come home in about three weeks.")
    n(
        CODER,
        "Platform sync",
        "Platform team sync is weekly on Wednesdays at 14:00 (45 minutes).",
        ref="calendar:series/platform-sync",
    )

    n.day("10-02")
    n(
        CODER,
        "Sprint retro 2 Oct",
        "Atlas sprint retro, 2 Oct. Went well: INC-2291 follow-ups closed. To improve: PRs waiting over a day for "
        "review. Action: a review rota, one reviewer on duty per day.",
    )
    n(
        CODER,
        "Atlas v2.18.0",
        "Released Atlas v2.18.0 on Fri 2 Oct: ReplicaLag alarm at 5 s wired into PagerDuty, ahead of the read-replica "
        "work.",
        at="14:25",
        ref="github:tallyworks/atlas/releases/v2.18.0",
    )
    n(
        ASSIST,
        "Friday pickup 2 Oct",
        "Picked up Noor and Felix at 15:15; Felix has a party invitation for Sat 10 Oct (his classmate Ruby, 14:00, soft "
        "play in Meanwood).",
    )

    n.day("10-03")
    n(ASSIST, "Parkrun 3 Oct", "Roundhay parkrun, 3 Oct: 25:12 in the rain.")
    n(ASSIST, "Parkrun distance", "A parkrun is 5 km, about 3.1 miles.")
    n(
        ASSIST,
        "Noor piano 3 Oct",
        "Mrs Adeyemi says Noor's scales are ready for the Grade 2 exam; the pieces need another month.",
    )

    n.day("10-04")
    n(ASSIST, "Lisbon dates", "Lisbon trip: 24-31 Oct, the whole family. Biscuit stays with Irene in Harrogate.")
    n(
        ASSIST,
        "Weekday and weekend mornings",
        "Lena gets up at 06:30 on weekdays and around 07:30 at weekends.",
        source="user_stated",
    )
    n(
        ASSIST,
        "Noor screen time",
        "Noor's screen time: 1 hour on school days, 2 hours a day at weekends.",
        cat="decision",
    )

    n.day("10-05")
    n(
        SCHED,
        "Atlas planning 5 Oct",
        "Atlas planning, 5 Oct: sprint goal is the read-replica plumbing (connection routing by endpoint) and the "
        "reconciliation export for 16 Oct.",
        at="12:05",
    )
    n(
        CODER,
        "Atlas on-call 5 Oct",
        "Kwame Boateng is on Atlas on-call 5-12 Oct; Lena takes 12-19 Oct.",
        ref="pagerduty:schedule/atlas-primary",
    )
    n(
        ASSIST,
        "Biscuit booster",
        "Biscuit had his annual booster at Meanwood Vets on Mon 5 Oct at 17:30. Weight 14.1 kg, healthy.",
        at="18:30",
    )
    n(CODER, "orbit-gateway 1.45", "Orbit's Monday deploy on 5 Oct: orbit-gateway 1.45.")

    n.day("10-06")
    n(
        SCHED,
        "Train to London 6 Oct",
        "Train Leeds to King's Cross, Tue 6 Oct, 07:15, coach C seat 42 (aisle). Hotel: Premier Inn King's Cross, one "
        "night.",
        ref="email:lner-booking",
    )
    n(
        SCHED,
        "1:1 with Ana, 6 Oct",
        "1:1 with Ana on 6 Oct was in person at the offsite: talked about Lena's Northern Data Summit talk and "
        "2027 headcount.",
        at="17:00",
    )
    n(
        CODER,
        "Platform offsite day 1",
        """
      Platform offsite, day 1 (6 Oct, London HQ):
      - 2027 themes: reliability, cost, developer experience
      - Ben presented on-call load: Atlas 11 pages in Q3, Orbit 23 (Orbit is not a Platform service; shared for context)
      - Greta: quarterly access review due in November
      - Agreed to keep the weekly Platform sync on Wednesdays
      """,
    )
    n(ASSIST, "Black bin 6 Oct", "Sam put the black bin out for Tue 6 Oct collection.")

    n.day("10-07")
    n(
        CODER,
        "Platform offsite day 2",
        "Offsite day 2 (7 Oct): cost review. Atlas's AWS spend, about £16k a month with prod and staging together, sits "
        "well inside Platform's budget; Harbor's Snowflake spend is the biggest line in Data's budget.",
    )
    n(SCHED, "Train home 7 Oct", "Train home from King's Cross, Wed 7 Oct, 17:33, arriving Leeds 19:50.")
    n(ASSIST, "Swimming 7 Oct", "Sam took Noor to swimming on 7 Oct as usual.", at="19:10")

    n.day("10-08")
    n(
        ASSIST,
        "Physio 8 Oct",
        "Physio, 8 Oct: no pain on stairs now. Priya added hops, 3 sets of 10, and says Lena can keep running "
        "parkrun at easy effort.",
    )
    n(
        SCHED,
        "Mentoring Dara, 8 Oct",
        "Mentoring with Dara, 8 Oct: the CSV writer PR (#1432) is in review; talked about estimating work in half-days.",
        at="11:40",
    )
    n(
        CODER,
        "Atlas PR #1432",
        "PR #1432 (Dara): reconciliation export CSV writer, streaming rows so memory stays flat for large accounts.",
        ref="github:tallyworks/atlas/pull/1432",
    )
    n(
        CODER,
        "Atlas review rules",
        "Atlas review rules: two approvals for a PR with a migration, one for everything else.",
    )

    n.day("10-09")
    n(ASSIST, "Harvest assembly", "Bankside harvest assembly on Fri 9 Oct at 09:15; Lena went, Felix's class sang.")
    n(
        CODER,
        "Atlas v2.19.0",
        "Atlas v2.19.0 to prod, Fri 9 Oct: read-routing scaffold, shipped dark behind a new reports_on_replica flag.",
        at="14:35",
        ref="github:tallyworks/atlas/releases/v2.19.0",
    )
    n(
        ASSIST,
        "Ruby's party",
        "Ruby's party on Saturday (Felix is invited) is at 14:00 at soft play in Meanwood; present bought (a Lego set, "
        "£15).",
    )

    n.day("10-10")
    n(ASSIST, "Flu jab", "Lena had her flu jab at Boots on Sat 10 Oct at 10:00, so no parkrun that day.", at="11:00")
    n(
        ASSIST,
        "Penicillin allergy",
        "Lena is allergic to penicillin (rash). Any pharmacy or GP form should say so.",
        source="user_stated",
    )

    n.day("10-11")
    n(
        ASSIST,
        "Lisbon flights",
        "Lisbon flights: out Sat 24 Oct from Manchester at 06:55, back Sat 31 Oct from Lisbon at 18:40, landing "
        "Manchester 21:05.",
        ref="email:tap-booking",
    )
    n(ASSIST, "Lisbon seats", "Seats for Lisbon: Lena 14C (aisle), Sam 14A (window), Noor and Felix 15A and 15B.")
    n(ASSIST, "Lisbon stay", "Lisbon apartment: Airbnb in Alfama, check-in 15:00 on 24 Oct, check-out 11:00 on 31 Oct.")

    n.day("10-12")
    n(CODER, "On-call 12 Oct", "Lena took Atlas on-call from Kwame at 10:00, Mon 12 Oct, until 19 Oct.")
    n(CODER, "orbit-gateway 1.46", "orbit-gateway 1.46 shipped on Mon 12 Oct.")
    n(ASSIST, "Felix Beavers", "Felix goes to Beavers on Mondays, 18:00-19:00, at St Matthew's church hall.")
    n(ASSIST, "Bedtimes", "Bedtimes on school nights: Felix 19:00, Noor 20:00. At weekends both go half an hour later.")

    n.day("10-13")
    n(
        CODER,
        "INC-2340 (Orbit)",
        "INC-2340, 13 Oct, 13:05-13:40: orbit-gateway returned 502s after a Redis failover. Orbit's incident, handled "
        "by Chidi's on-call; Atlas unaffected.",
        ref="incident:INC-2340",
        at="14:10",
    )
    n(
        SCHED,
        "1:1 with Ana, 13 Oct",
        "1:1 with Ana, 13 Oct: talk slides review. Ana asked for one slide on the INC-2291 lesson.",
        at="15:40",
    )
    n(ASSIST, "Green bin 13 Oct", "Green recycling bin collected Tue 13 Oct.")

    n.day("10-14")
    n(CODER, "Atlas DB size", "The Atlas prod database is about 180 GB; postings is 140 GB of that, indexes included.")
    n(
        RESEARCH,
        "Partitioning postings",
        "Read up on declarative partitioning for postings by booked_at month: worth it above ~500 GB. Not needed "
        "in 2026 at Atlas's size.",
        cat="insight",
    )
    n(
        ASSIST,
        "Noor swimming 14 Oct",
        "Noor's swimming on 14 Oct: started on her Stage 6 work (treading water, 25 m backstroke).",
        at="19:00",
    )

    n.day("10-15")
    n(
        ASSIST,
        "Northern Data Summit",
        'Lena is speaking at Northern Data Summit in Manchester on Wed 21 Oct: "Double-entry at scale", 30 minutes, '
        "11:30. Slides were due today, 15 Oct, and are submitted.",
    )
    n(
        CODER,
        "On-call log 15 Oct",
        "On-call, 15 Oct: no pages overnight. One daytime alert (ReplicaLag 6 s on the staging replica during a load "
        "test), expected.",
    )
    n(CODER, "Mentoring slot", "Lena's mentoring with Dara stays on Thursdays at 11:00, every other week.")

    n.day("10-16")
    n(
        CODER,
        "Sprint retro 16 Oct",
        "Atlas retro, 16 Oct: the review rota cut the wait for a first review to under 4 hours. Keep it.",
    )
    n(
        CODER,
        "Atlas v2.20.0",
        "Atlas v2.20.0 released 16 Oct with the reconciliation export (CSV, per account per month), as committed in "
        "planning.",
        at="14:15",
        ref="github:tallyworks/atlas/releases/v2.20.0",
    )
    n(
        ASSIST,
        "Friday evening",
        "Pizza night on Fridays is a family habit; Lena's is always the one with anchovies.",
        cat="preference",
    )

    n.day("10-17")
    n(ASSIST, "Parkrun 17 Oct", "Parkrun 17 Oct: 24:49, best of the autumn so far.", at="10:00")
    n(ASSIST, "Felix football 17 Oct", "Felix's Under-7s match on 17 Oct was a 3-3 draw.")

    n.day("10-18")
    n(
        ASSIST,
        "Lisbon plan",
        """
      Lisbon plan (24-31 Oct):
      - Sun 25: Alfama and the castle
      - Mon 26: Belém (tower, monastery, pastéis)
      - Tue 27: Oceanário
      - Wed 28: day trip to Sintra by train
      - Thu 29: beach at Cascais if dry
      - Fri 30: LX Factory, packing
      """,
    )
    n(
        ASSIST,
        "Boiler service",
        "Boiler service booked with British Gas for Mon 19 Oct, 08:00-12:00 slot; Lena is home that day.",
    )

    n.day("10-19")
    n(
        CODER,
        "On-call handover 19 Oct",
        "Handed Atlas on-call to Marta Silva on 19 Oct at 10:00. Lena's week: 2 pages, both ReplicaLag on staging "
        "during load tests.",
    )
    n(
        SCHED,
        "Atlas planning 19 Oct",
        "Atlas planning, 19 Oct: short sprint because of half-term. Goal: replica routing for /reports in staging in "
        "the first week of November.",
        at="12:05",
    )
    n(ASSIST, "Boiler serviced", "Boiler serviced on 19 Oct at 09:40; engineer says it's fine for another year.")
    n(
        ASSIST,
        "Ben's birthday",
        "Ben Ashworth's birthday is 19 October; the team had cake in the Leeds office (Lena was home that day).",
    )

    n.day("10-20")
    n(
        SCHED,
        "1:1 with Ana, 20 Oct",
        "1:1 with Ana, 20 Oct: dry run of the talk went well. Lena is off 26-30 Oct for half-term.",
        at="15:40",
    )
    n(
        CODER,
        "Half-term cover",
        "Half-term cover for Atlas: Kwame is on call 26 Oct-2 Nov; Marta approves hotfixes on Lena's behalf while she is "
        "away.",
    )
    n(ASSIST, "Black bin 20 Oct", "Black bin collected 20 Oct.")

    n.day("10-21")
    n(
        ASSIST,
        "Talk given",
        'Lena gave "Double-entry at scale" at Northern Data Summit, Manchester, 21 Oct, 11:30; about 120 people in '
        "the room.",
        at="13:00",
    )
    n(ASSIST, "Swimming 21 Oct", "Sam took Noor swimming on 21 Oct while Lena was in Manchester.", at="19:00")
    n(
        RESEARCH,
        "Talk questions",
        "Questions after the talk: how Atlas handles multi-currency postings (one currency per posting, FX as two "
        "postings) and whether we use event sourcing (no: postings are immutable rows, balances derived).",
    )

    n.day("10-22")
    n(
        ASSIST,
        "Physio 22 Oct",
        "Physio, 22 Oct: knee fine at parkrun pace. Two more sessions in this block: 5 Nov and 19 Nov.",
    )
    n(
        SCHED,
        "Mentoring Dara, 22 Oct",
        "Mentoring with Dara, 22 Oct: her first on-call shadow week is 9-16 Nov, with Lena as primary.",
    )
    n(CODER, "Atlas DB size in TB", "For the capacity sheet: Atlas prod DB roughly 0.18 TB.")

    n.day("10-23")
    n(
        CODER,
        "Atlas v2.21.0",
        "Released Atlas v2.21.0 on Fri 23 Oct, and turned reports_on_replica on in staging the same afternoon: "
        "/reports reads there go to the replica.",
        at="14:20",
        ref="github:tallyworks/atlas/releases/v2.21.0",
    )
    n(
        CODER,
        "No release 30 Oct",
        "No Atlas release on Fri 30 Oct: half the team is away for half-term. The next release train is 6 Nov.",
        cat="decision",
    )
    n(
        ASSIST,
        "Out of office",
        "Lena's out-of-office: 24 Oct to 1 Nov; back Mon 2 Nov. Urgent Atlas questions to Marta.",
    )

    n.day("10-24")
    n(
        ASSIST,
        "Biscuit at Irene's",
        "Dropped Biscuit at Irene's in Harrogate on 23 Oct evening, with 2.5 kg of his food (enough for the week).",
    )
    n(ASSIST, "Arrived Lisbon", "Arrived in Lisbon on 24 Oct; apartment in Alfama is up 80 steps.")

    n.day("10-25")
    n(ASSIST, "Lisbon, 25 Oct", "Lisbon, 25 Oct: castle and Alfama. Felix loved tram 28.", at="20:00")

    n.day("10-26")
    n(
        ASSIST,
        "Lisbon Belém",
        "Belém on 26 Oct: tower and monastery; pastéis de Belém, 6 for the four of us.",
        at="20:00",
    )
    n(CODER, "Kwame on call", "Kwame took Atlas on-call at 10:00 on 26 Oct (Lena away).")

    n.day("10-27")
    n(ASSIST, "Oceanário", "Oceanário on 27 Oct; Noor's favourite was the sunfish.", at="20:00")

    n.day("10-28")
    n(ASSIST, "Sintra", "Sintra day trip, 28 Oct, by train from Rossio (40 minutes). Pena Palace in fog.", at="20:00")
    n(
        CODER,
        "Harbor dbt deploy 28 Oct",
        "Harbor's Wednesday dbt deploy on 28 Oct added the reconciliation export to the finance models (Eun-ji's note "
        "in #data).",
    )

    n.day("10-29")
    n(ASSIST, "Cascais", "Cascais on 29 Oct: dry and 21 °C; the kids swam for ten minutes.", at="20:00")

    n.day("10-30")
    n(CODER, "Retro 30 Oct", "Atlas retro on 30 Oct was run by Marta while Lena was away; notes in Quill.")

    n.day("10-31")
    n(
        ASSIST,
        "Back from Lisbon",
        "Back in Manchester on Sat 31 Oct at 21:05, home by 23:00. Biscuit comes back from Irene's on Sunday.",
        at="23:05",
    )

    n.day("10-31")
    n(
        ASSIST,
        "October summary",
        """
      October in short:
      - Atlas v2.18.0 to v2.21.0; no release on 30 Oct (half-term)
      - Lena on call 12-19 Oct, two pages, both staging
      - Northern Data Summit talk on 21 Oct
      - Lisbon 24-31 Oct
      - Best parkrun: 24:49 on 17 Oct
      """,
        at="23:20",
    )


def a_november(n: Writer) -> None:
    n.day("11-01")
    n(ASSIST, "Biscuit home", "Irene brought Biscuit back on Sun 1 Nov and stayed for lunch.")
    n(
        ASSIST,
        "Week ahead (2-8 Nov)",
        """
      Week ahead, 2-8 Nov:
      - Mon 2: back at work; Atlas planning 11:00; Beavers 18:00
      - Tue 3: 1:1 with Ana; replica routing for /reports in staging gets its load test
      - Wed 4: parents' evening 16:40 (Noor) and 17:00 (Felix)
      - Thu 5: physio 08:00; mentoring Dara 11:00; bonfire night
      - Fri 6: Atlas v2.22.0
      - Sat 7: dinner out for Sam's birthday, Holly babysitting
      """,
    )

    n.day("11-02")
    n(
        SCHED,
        "Atlas planning 2 Nov",
        "Atlas planning, 2 Nov: goal for the sprint is turning reports_on_replica on in prod on Wed 18 Nov, after a week "
        "of staging load tests.",
        at="12:05",
    )
    n(
        CODER,
        "Atlas on-call 2 Nov",
        "Marta Silva is on Atlas on-call 2-9 Nov; Lena 9-16 Nov with Dara shadowing.",
        ref="pagerduty:schedule/atlas-primary",
    )
    n(
        CODER,
        "orbit-gateway 1.48",
        "Orbit's deploy on Mon 2 Nov: orbit-gateway 1.48 (1.47 went out on 26 Oct while Lena was away).",
    )
    n(
        ASSIST,
        "Inbox after holiday",
        "Lena's first day back (2 Nov): 212 unread emails, 3 PR reviews waiting, nothing urgent.",
    )

    n.day("11-03")
    n(
        CODER,
        "Replica load test",
        "Staging load test, 3 Nov: /reports on the replica at 3x peak traffic; p95 190 ms, ReplicaLag peaked at 1.4 s. "
        "Good for prod.",
    )
    n(
        SCHED,
        "1:1 with Ana, 3 Nov",
        "1:1 with Ana, 3 Nov: Lisbon debrief, the replica rollout date (18 Nov) and the calibration panel on 17 Nov.",
        at="15:40",
    )
    n(ASSIST, "Black bin 3 Nov", "Black bin out for Tue 3 Nov.")
    n(ASSIST, "Council tax", "Council tax (band D, Leeds) is £2,140 for the year, paid by direct debit.")

    n.day("11-04")
    n(
        ASSIST,
        "Parents' evening",
        "Parents' evening, 4 Nov: Noor's teacher says she is working above the expected standard in maths and reads "
        "widely; Felix is settled in Year 2 and needs practice with his phonics book every night.",
        at="19:30",
    )
    n(
        CODER,
        "Platform sync 4 Nov",
        "Platform sync, 4 Nov: Greta's quarterly access review runs 9-20 Nov; every service owner confirms their IAM "
        "roles.",
    )
    n(
        CODER,
        "Atlas IAM roles",
        "Atlas has three IAM roles: atlas-api, atlas-worker and atlas-ci. The ci role can read ECR and push images but "
        "cannot reach the prod database.",
    )

    n.day("11-05")
    n(
        ASSIST,
        "Physio 5 Nov",
        "Physio, 5 Nov: full range, no pain. Last session of the block is 19 Nov; after that Lena keeps the exercises "
        "twice a week on her own.",
    )
    n(
        SCHED,
        "Mentoring Dara, 5 Nov",
        "Mentoring with Dara, 5 Nov: prepared her for shadowing on-call next week: the runbook, PagerDuty app, "
        "escalation to Lena.",
    )
    n(
        ASSIST,
        "Bonfire night",
        "Bonfire night, 5 Nov: Lena and the kids went to the Roundhay Park fireworks; Sam stayed home with Biscuit, who "
        "is scared of fireworks.",
        at="21:00",
    )
    n(
        ASSIST,
        "Council tax instalments",
        "The £2,140 council tax is paid as ten monthly instalments of £214, April to January.",
    )

    n.day("11-06")
    n(
        CODER,
        "Atlas v2.22.0",
        "Atlas v2.22.0 released Fri 6 Nov: bulk postings endpoint (up to 500 postings per request).",
        at="14:20",
        ref="github:tallyworks/atlas/releases/v2.22.0",
    )
    n(
        ASSIST,
        "Babysitter",
        "Holly Turner babysits for Lena and Sam; £12 an hour; she's booked for Sat 7 Nov, 19:00-23:30.",
    )
    n(
        CODER,
        "Bulk postings limit",
        "POST /postings/bulk takes at most 500 postings and is idempotent per request key, like the single endpoint.",
    )

    n.day("11-07")
    n(ASSIST, "Parkrun 7 Nov", "Parkrun 7 Nov: 24:40.")
    n(
        ASSIST,
        "Sam's birthday dinner",
        "Dinner for Sam's birthday, Sat 7 Nov, 19:30, at the Ox Club. Lena had the hake.",
        at="23:35",
    )
    n(ASSIST, "Sam's birthday", "Sam's birthday is 8 November; he is 41 this year.", source="user_stated")

    n.day("11-08")
    n(
        ASSIST,
        "Sam's birthday 8 Nov",
        "Sunday 8 Nov, Sam's birthday: Noor baked a lemon cake; Felix made a card with Biscuit on it.",
    )
    n(
        ASSIST,
        "Birthdays list",
        """
      Family birthdays:
      - Noor: 3 May
      - Felix: 21 January
      - Lena: 27 February
      - Sam: 8 November
      - Irene: 14 September
      - Tom: 12 June
      - Adaeze: 30 August
      """,
    )

    n.day("11-09")
    n(CODER, "On-call 9 Nov", "Lena took Atlas on-call at 10:00 on Mon 9 Nov; Dara shadows all week.")
    n(CODER, "orbit-gateway 1.49", "orbit-gateway 1.49 shipped on Mon 9 Nov.")
    n(ASSIST, "MOT", "The Skoda Octavia's MOT is due by 14 Nov; booked at Meanwood Motors for Thu 12 Nov, 08:30.")

    n.day("11-10")
    n(
        SCHED,
        "1:1 with Ana, 10 Nov",
        "1:1 with Ana, 10 Nov: access review, the replica go/no-go on 17 Nov, and the December change freeze.",
        at="15:40",
    )
    n(CODER, "Change freeze", "December change freeze for Atlas: 14 Dec to 4 Jan, hotfixes only.", cat="decision")
    n(ASSIST, "Green bin 10 Nov", "Green recycling bin collected Tue 10 Nov.")

    n.day("11-11")
    n(
        CODER,
        "INC-2389",
        "INC-2389, Wed 11 Nov, 03:10-03:32 (22 minutes): atlas-api health checks failed on DNS resolution errors at the "
        "provider; no data lost, postings retried by clients. Lena on call, Dara shadowing.",
        ref="incident:INC-2389",
    )
    n(
        CODER,
        "On-call log 11 Nov",
        "On-call 11 Nov: the 03:10 page was the only one of the night. Dara followed along on the bridge call.",
    )
    n(ASSIST, "Remembrance", "Noor's class laid a wreath at the school's Remembrance assembly on 11 Nov.")

    n.day("11-12")
    n(ASSIST, "MOT passed", "Octavia passed its MOT on 12 Nov; advisory on the rear tyres (3 mm).")
    n(
        CODER,
        "INC-2389 follow-up",
        "INC-2389 follow-up: Ben adds a second DNS resolver for the Atlas VPC; a retry on name resolution goes into "
        "atlas-api's health check.",
    )
    n(ASSIST, "Car insurance", "Car insurance with Admiral renews on 1 Dec; the renewal quote arrives mid-November.")

    n.day("11-13")
    n(
        CODER,
        "Sprint retro 13 Nov",
        "Atlas retro, 13 Nov: staging load tests gave confidence for the replica; keep doing them before risky "
        "rollouts.",
        at="10:50",
    )
    n(
        CODER,
        "Atlas v2.23.0",
        "Atlas v2.23.0 out 13 Nov: health check retries name resolution once (INC-2389).",
        at="14:25",
        ref="github:tallyworks/atlas/releases/v2.23.0",
    )
    n(ASSIST, "Insurance quote", "Admiral renewal quote arrived 13 Nov: £468 for the year.")

    n.day("11-14")
    n(ASSIST, "Parkrun 14 Nov", "Parkrun, 14 Nov: 24:35.")
    n(
        ASSIST,
        "Noor exam date",
        "Noor's Grade 2 piano exam is on Sat 28 Nov at 11:20, at the exam centre in Leeds city centre.",
        ref="email:abrsm-confirmation",
    )

    n.day("11-15")
    n(
        ASSIST,
        "Christmas plan",
        "Christmas this year is at Irene's in Harrogate, 24-27 Dec; Tom and Jess are coming too.",
    )

    n.day("11-16")
    n(
        CODER,
        "On-call handover 16 Nov",
        "Handed Atlas on-call to Kwame at 10:00 on 16 Nov. Lena's week: one page (INC-2389).",
    )
    n(
        SCHED,
        "Atlas planning 16 Nov",
        "Atlas planning, 16 Nov: the replica go-live on Wed 18 Nov is confirmed; next sprint starts on the "
        "payouts ledger design.",
    )
    n(
        CODER,
        "Dara on-call shadow",
        "Dara's shadow week went well; she can take a primary Atlas on-call week in January.",
    )

    n.day("11-17")
    n(
        SCHED,
        "London day trip 17 Nov",
        "London day trip, Tue 17 Nov: 06:45 from Leeds, 19:03 from King's Cross back. Calibration panel at 14:00; 1:1 "
        "with Ana in person before it.",
    )
    n(
        CODER,
        "Replica go/no-go",
        "Go/no-go for reports_on_replica in prod, 17 Nov: go. Ben on standby tomorrow morning.",
        cat="decision",
    )
    n(
        ASSIST,
        "Calibration panel",
        "Lena's promotion case went to the calibration panel on 17 Nov; the outcome comes in December.",
    )

    n.day("11-18")
    n(
        CODER,
        "Replica in prod",
        "Turned reports_on_replica on in prod on Wed 18 Nov at 10:05: /reports reads go to the replica. p95 for "
        "/reports 210 ms in the first hour; ReplicaLag under 1 s.",
        ref="github:tallyworks/atlas/issues/1501",
        at="10:30",
    )
    n(
        CODER,
        "Harbor dbt 18 Nov",
        "Harbor deployed its weekly dbt changes on Wed 18 Nov, including a model reading the Atlas export's new "
        "reconciliation columns.",
    )
    n(ASSIST, "Swimming 18 Nov", "Noor's swimming, 18 Nov: she swam 100 m continuous backstroke.", at="19:00")

    n.day("11-19")
    n(
        ASSIST,
        "Physio 19 Nov",
        "Last physio session of the block, 19 Nov. Discharged; exercises twice a week, and back in touch if the knee "
        "flares.",
    )
    n(
        SCHED,
        "Mentoring Dara, 19 Nov",
        "Mentoring with Dara, 19 Nov: her on-call reflections; next topic is reading query plans.",
        at="11:45",
    )
    n(CODER, "Replica day 2", "Day after the replica rollout (19 Nov): primary CPU down from 55% to 38% at peak.")

    n.day("11-20")
    n(
        CODER,
        "Atlas v2.24.0",
        "Atlas v2.24.0 released 20 Nov: payouts ledger tables (empty, behind the payouts flag).",
        at="14:15",
        ref="github:tallyworks/atlas/releases/v2.24.0",
    )
    n(
        ASSIST,
        "Car insurance renewed",
        "Renewed the car insurance with Admiral at the quoted £468 for the year from 1 Dec.",
    )

    n.day("11-21")
    n(ASSIST, "Parkrun 21 Nov", "Parkrun, 21 Nov: 24:31.", at="10:15")
    n(
        ASSIST,
        "Felix football 21 Nov",
        "Felix's Under-7s match on 21 Nov: lost 2-4, he was goalkeeper for the second half.",
    )

    n.day("11-24")
    n(
        SCHED,
        "1:1 with Ana, 24 Nov",
        "1:1 with Ana, 24 Nov: replica rollout results, 2027 goals draft due 11 Dec.",
        at="15:40",
    )
    n(ASSIST, "Green bin 24 Nov", "Green bin collected Tue 24 Nov.")
    n(
        CODER,
        "Payouts ledger design",
        "Payouts ledger design doc started (24 Nov): one account per merchant payout schedule; payouts post as two "
        "entries like every other movement.",
        ref="quill:doc/payouts-ledger-design",
    )

    n.day("11-25")
    n(
        CODER,
        "Access review done",
        "Confirmed Atlas's three IAM roles for Greta's access review on 25 Nov; nothing to remove.",
    )
    n(
        ASSIST,
        "Noor's exam prep",
        "Noor did a mock of her piano exam for Mrs Adeyemi on 25 Nov (an extra Wednesday lesson after swimming).",
        at="19:30",
    )

    n.day("11-26")
    n(
        ASSIST,
        "Christmas gifts",
        "Christmas gift ideas: Noor wants art markers and a book light; Felix wants a goalkeeper's gloves set.",
    )
    n(CODER, "Orbit note", "Chidi says Orbit will not read from Atlas's replica; Orbit only calls the postings API.")

    n.day("11-27")
    n(
        CODER,
        "Sprint retro 27 Nov",
        "Atlas retro, 27 Nov: replica rollout was smooth; the ReplicaLag alarm never fired in prod.",
        at="10:50",
    )
    n(
        CODER,
        "Atlas v2.25.0",
        "Atlas v2.25.0 released 27 Nov: reconciliation export gains a JSON format beside CSV.",
        at="14:20",
        ref="github:tallyworks/atlas/releases/v2.25.0",
    )

    n.day("11-28")
    n(
        ASSIST,
        "Noor's piano exam",
        "Noor sat her Grade 2 piano exam on 28 Nov at 11:20; results in about three weeks.",
        at="13:00",
    )
    n(ASSIST, "Parkrun 28 Nov", "No parkrun on 28 Nov: Lena went with Noor to her piano exam.")

    n.day("11-30")
    n(
        SCHED,
        "Atlas planning 30 Nov",
        "Atlas planning, 30 Nov: last sprint before the change freeze; payouts ledger API skeleton.",
        at="12:05",
    )
    n(CODER, "On-call 30 Nov", "Lena is on Atlas on-call 30 Nov-7 Dec.", ref="pagerduty:schedule/atlas-primary")
    n(
        ASSIST,
        "November summary",
        """
      November in short:
      - reports_on_replica on in prod from 18 Nov, smooth
      - Atlas v2.22.0 to v2.25.0
      - Lena on call 9-16 Nov (INC-2389), Dara shadowing
      - Physio block finished on 19 Nov
      - Noor's Grade 2 exam on 28 Nov
      - Parkrun best: 24:31 (21 Nov)
      """,
        at="21:00",
    )


def a_work_extra(n: Writer) -> None:
    """Persona a: technical notes written alongside the month's sessions (coder, research)."""
    n.day("09-02")
    n(
        CODER,
        "Atlas API versioning",
        "Atlas's public API is versioned in the path (/v1/...); a breaking change needs a new prefix.",
        cat="decision",
    )
    n.day("09-03")
    n(
        CODER,
        "Posting ids",
        "Posting ids in Atlas are UUIDv7, generated by the API, so they sort by creation time.",
        cat="decision",
    )
    n.day("09-04")
    n(
        CODER,
        "Atlas error format",
        "Atlas errors are RFC 9457 problem details (application/problem+json), with a stable `type` URI per error.",
    )
    n.day("09-07")
    n(CODER, "Atlas lint and format", "Atlas uses ruff for linting and formatting, line length 100.")
    n(CODER, "Quill formatting", "Quill uses Prettier with print width 80 and 2-space indents.")
    n.day("09-08")
    n(CODER, "Orbit lint", "Orbit code is gofmt'd and golangci-lint runs in its CI.")
    n.day("09-09")
    n(CODER, "Atlas feature flags", "Atlas's feature flags live in the self-hosted Unleash; flag names are snake_case.")
    n.day("09-10")
    n(
        RESEARCH,
        "LaunchDarkly vs Unleash",
        "Priced LaunchDarkly for Platform: about $20k a year at our seat count. The self-hosted Unleash costs one small "
        "ECS service. No case for paying.",
        cat="decision",
    )
    n.day("09-11")
    n(
        CODER,
        "Atlas dependency updates",
        "Atlas pins dependencies with uv (uv.lock committed); Renovate opens update PRs on Monday mornings.",
    )
    n.day("09-14")
    n(
        CODER,
        "Atlas database instances",
        "Atlas RDS instances: prod db.r6g.xlarge with a Multi-AZ standby; staging db.t4g.medium, single-AZ.",
    )
    n.day("09-15")
    n(CODER, "Atlas backups", "Atlas prod RDS keeps automated snapshots for 35 days; staging keeps them for 7.")
    n.day("09-16")
    n(CODER, "Harbor retention", "Harbor keeps raw Kafka events in Snowflake for 400 days.")
    n(CODER, "Orbit log retention", "Orbit keeps its application logs for 14 days.")
    n.day("09-17")
    n(CODER, "orbit-gateway", "orbit-gateway listens on port 9090 and runs 8 replicas in prod.")
    n.day("09-18")
    n(CODER, "Quill hosting", "Quill serves on port 3000 behind the internal load balancer, 2 replicas.")
    n.day("09-22")
    n(CODER, "Harbor Airflow", "Harbor's Airflow webserver listens on port 8080 in the data cluster.")
    n.day("09-23")
    n(
        CODER,
        "Atlas time rules",
        "Atlas stores every timestamp in UTC; booked_at is the merchant's local date, stored with the merchant's IANA "
        "time zone.",
        cat="decision",
    )
    n.day("09-24")
    n(
        RESEARCH,
        "Postgres 17 on RDS",
        "Postgres 17 on RDS brings incremental backups and leaner vacuum memory. Nothing Atlas needs in 2026; revisit "
        "in 2027 planning.",
        cat="insight",
    )
    n.day("09-25")
    n(
        CODER,
        "Atlas migration rule",
        "Atlas schema migrations must work with the previous release's code: expand first, contract a release later.",
        cat="decision",
    )
    n.day("09-29")
    n(
        CODER,
        "Atlas error budget",
        "Atlas's 99.9% monthly availability SLO leaves an error budget of about 43 minutes a month.",
    )
    n.day("09-30")
    n(
        CODER,
        "September error budget",
        "September: INC-2291's 38 minutes counted against Atlas's error budget, leaving about 5 minutes of the month's "
        "43.",
    )
    n(
        CODER,
        "Deploy days",
        "Deploy days across teams: Atlas Fridays at 14:00, Orbit Mondays, Harbor's dbt models Wednesdays, Quill on "
        "every merge.",
    )
    n.day("10-01")
    n(
        CODER,
        "Atlas rate limit",
        "Atlas's public API allows 600 requests per minute per API key. Internal callers (Orbit, the nightly export "
        "job) are not rate limited.",
    )
    n.day("10-02")
    n(CODER, "Orbit rate limit", "orbit-gateway rate-limits each device to 120 requests per minute.")
    n.day("10-05")
    n(
        CODER,
        "Atlas CODEOWNERS",
        "CODEOWNERS in Atlas: /migrations needs Marta or Lena; /worker needs Kwame; everything else any Atlas engineer.",
    )
    n.day("10-06")
    n(
        CODER,
        "Secret rotation",
        "Platform services rotate secrets every 90 days. Atlas's database passwords were last rotated on 2 Sep; the "
        "next rotation is due by 1 Dec.",
    )
    n.day("10-08")
    n(
        RESEARCH,
        "Streaming CSV",
        "Streaming CSV from Postgres: a server-side cursor with itersize 10,000 keeps the export job under 200 MB of "
        "memory whatever the account size.",
    )
    n.day("10-09")
    n(
        CODER,
        "Atlas tests",
        "Atlas has about 3,100 tests: 2,700 unit tests and 400 integration tests against a real Postgres in Docker.",
    )
    n.day("10-13")
    n(CODER, "Postgres versions", "Orbit runs Postgres 15, one major version behind Atlas's 16.")
    n.day("10-14")
    n(
        CODER,
        "Staging data",
        "Atlas staging holds synthetic data only; no production data is ever copied to staging.",
        cat="decision",
    )
    n.day("10-15")
    n(CODER, "Atlas CI minutes", "Atlas used about 41,000 GitHub Actions minutes in September.")
    n.day("10-16")
    n(
        CODER,
        "Reconciliation export format",
        "Reconciliation export: one file per account per month, columns posting_id, booked_at, amount_minor, currency, "
        "counterparty, reference.",
    )
    n.day("10-19")
    n(
        CODER,
        "Largest export",
        "Largest reconciliation export so far: one merchant's September, 1.2 GB and about 9 million rows.",
    )
    n.day("10-20")
    n(CODER, "Largest export in MB", "S3 shows that merchant's September reconciliation file at 1,229 MB.")
    n(
        CODER,
        "Editors on the team",
        "Editors on the Atlas team: Lena uses Neovim, Marta VS Code, Kwame PyCharm, Dara VS Code.",
        cat="preference",
    )
    n.day("10-23")
    n(
        CODER,
        "PR #1432 merged",
        "Dara's PR #1432 (reconciliation CSV writer) was merged on 15 Oct and shipped in v2.20.0.",
    )
    n.day("11-02")
    n(
        CODER,
        "Atlas traffic",
        "Atlas handles about 4 million postings a day, peaking near 300 writes/s around 17:00 UK on weekdays.",
    )
    n.day("11-03")
    n(CODER, "Weekend traffic", "At weekends Atlas sees about a third of its weekday posting volume.")
    n.day("11-04")
    n(CODER, "Replica sizing", "The Atlas prod read replica is a db.r6g.large, one size below the primary.")
    n.day("11-05")
    n(
        CODER,
        "Retention summary",
        """
      Retention, for the access review:
      - Atlas logs: 30 days prod, 7 days staging
      - Atlas RDS snapshots: 35 days prod, 7 days staging
      - Orbit logs: 14 days
      - Harbor raw events: 400 days
      """,
    )
    n.day("11-10")
    n(CODER, "Staging replica", "Staging has its own Atlas read replica (db.t4g.medium), created for the load tests.")
    n.day("11-12")
    n(
        RESEARCH,
        "VPC DNS resolvers",
        "Route 53 Resolver handles DNS inside a VPC; a second resolver path for Atlas means resolver endpoints in two "
        "AZs. Health checks should retry a failed lookup once before failing.",
    )
    n.day("11-17")
    n(
        CODER,
        "Atlas decision log",
        """
      Atlas decisions so far (ADRs):
      1. Amounts as integer minor units with an ISO 4217 code
      2. Posting ids are UUIDv7
      3. Errors as RFC 9457 problem details
      4. Reporting endpoints read from a replica (RFC-031)
      5. Timestamps in UTC; booked_at with the merchant's zone
      """,
    )
    n.day("11-19")
    n(
        CODER,
        "Ports",
        "Ports for the access review: atlas-api 8080, orbit-gateway 9090, Quill 3000, Harbor's Airflow webserver 8080 "
        "(data cluster).",
    )
    n.day("11-23")
    n(
        CODER,
        "Payout schedules",
        "In the payouts ledger each merchant chooses its own payout schedule: daily, weekly or monthly.",
    )
    n.day("11-25")
    n(CODER, "Hugo's days", "Hugo Martins works on Quill three days a week, Tuesday to Thursday.")
    n.day("11-26")
    n(CODER, "On-call handovers", "On-call handovers: Atlas on Mondays at 10:00, Orbit on Wednesdays at 10:00.")
    n.day("11-27")
    n(
        RESEARCH,
        "Payouts prior art",
        "Read how two open-source ledgers model payouts: both treat a payout as a transfer from the merchant's balance "
        "to a clearing account, then settle from clearing. Same shape as Atlas's design doc.",
        cat="insight",
    )


def a_life_extra(n: Writer) -> None:
    """Persona a: household, people and preferences, written alongside (assistant, scheduler, research)."""
    n.day("09-02")
    n(
        ASSIST,
        "Lena's tools",
        "Lena writes code in Neovim inside tmux, with the fish shell.",
        cat="preference",
        source="user_stated",
    )
    n.day("09-03")
    n(
        ASSIST,
        "Laptops",
        "Lena's work laptop is a 14-inch MacBook Pro (M3); her personal laptop is a ThinkPad X1 Carbon running Fedora.",
    )
    n.day("09-04")
    n(
        ASSIST,
        "Meeting preferences",
        "Lena keeps mornings before 09:30 free of meetings and prefers written async updates to status meetings.",
        cat="preference",
        source="user_stated",
    )
    n.day("09-06")
    n(ASSIST, "Groceries", "Weekly grocery delivery from Sainsbury's on Sunday evenings, 19:00-20:00 slot.")
    n.day("09-08")
    n(ASSIST, "Mortgage", "Mortgage with Nationwide: fixed at 4.19% until 31 Mar 2028, £1,240 a month.")
    n.day("09-09")
    n(ASSIST, "Broadband", "Home broadband is 500 Mb/s fibre from Zen; the router is in the hall cupboard.")
    n.day("09-10")
    n(
        ASSIST,
        "Sam's preference",
        "Sam prefers a phone call to a text for anything about the kids' logistics.",
        cat="preference",
    )
    n.day("09-11")
    n(
        SCHED,
        "Atlas retros",
        "Atlas sprint retros are on the last Friday of each two-week sprint, at 10:00.",
        ref="calendar:series/atlas-retro",
    )
    n.day("09-12")
    n(
        ASSIST,
        "Noor's friend Isla",
        "Noor's best friend is Isla (mum: Claire). Isla's birthday party is bowling on Sat 17 Oct at 14:00.",
    )
    n.day("09-14")
    n(ASSIST, "Tom's job", "Tom is a PE teacher at a secondary school in Bristol.")
    n.day("09-15")
    n(ASSIST, "Energy", "Gas and electricity are with Octopus; one direct debit of £165 a month covers both.")
    n.day("09-18")
    n(ASSIST, "Car", "The family car is a 2019 Skoda Octavia estate, petrol.")
    n.day("09-19")
    n(ASSIST, "Biscuit", "Biscuit is a four-year-old cocker spaniel, about 14 kg, registered at Meanwood Vets.")
    n.day("09-20")
    n(ASSIST, "Sunday walks", "On Sundays the family walks Biscuit at Golden Acre Park when the weather allows.")
    n.day("09-21")
    n(
        RESEARCH,
        "Coding for Noor",
        "Looked at Scratch and micro:bit for Noor: start with Scratch at home. Bankside runs a micro:bit club on "
        "Thursdays at lunchtime.",
    )
    n.day("09-22")
    n(ASSIST, "Noor's reading", "Noor is reading the Nevermoor series; she finished book 2 on 22 Sep.")
    n.day("09-24")
    n(ASSIST, "Ben's coffee", "Ben Ashworth drinks coffee all day, double espressos from the Leeds office machine.")
    n.day("09-27")
    n(
        RESEARCH,
        "Lisbon with children",
        "Lisbon with children: Oceanário, Belém, tram 28 early before the queues, Sintra by train from Rossio, "
        "Cascais for a beach day.",
    )
    n.day("09-28")
    n(
        ASSIST,
        "Passports",
        "Passports are all valid beyond next year: Lena's expires 2031, Sam's 2029, Noor's 2028, Felix's 2030.",
    )
    n.day("10-02")
    n(ASSIST, "Music for focus", "Lena works to ambient playlists with no lyrics when she writes.", cat="preference")
    n.day("10-07")
    n(
        ASSIST,
        "London hotels",
        "In London Lena prefers a hotel within walking distance of King's Cross.",
        cat="preference",
    )
    n.day("10-09")
    n(
        ASSIST,
        "Dentist",
        "Noor and Felix had check-ups at Chapel Allerton Dental on 9 Oct at 15:45: no fillings; next check-up in six "
        "months.",
    )
    n.day("10-14")
    n(ASSIST, "Sam's parents", "Sam's parents live in Manchester, near Adaeze. His mum Grace's birthday is 2 December.")
    n.day("10-17")
    n(ASSIST, "Isla's party", "Noor went to Isla's bowling party on 17 Oct after Felix's match; Sam took her.")
    n.day("10-18")
    n(
        ASSIST,
        "Packing list Lisbon",
        """
      Packing for Lisbon:
      - passports (4), EHIC/GHIC cards
      - Noor's EpiPen
      - Felix's football (he insists)
      - sun cream, light rain jackets
      - adapters (Portugal uses type F)
      """,
    )
    n.day("10-20")
    n(ASSIST, "Holiday cash", "Took €300 in cash for Lisbon; cards for everything else.")
    n.day("10-22")
    n(ASSIST, "Felix's tooth", "Felix lost his first tooth on 22 Oct.")
    n.day("10-23")
    n(
        ASSIST,
        "Plants",
        "Jan from number 14 waters the plants while we're in Lisbon; she has the spare key from 23 Oct.",
    )
    n.day("11-01")
    n(
        ASSIST,
        "Lisbon costs",
        "Lisbon cost £2,860 all in: flights £1,140, apartment £1,050, food and everything else £670.",
    )
    n.day("11-02")
    n(
        ASSIST,
        "Holiday budget 2026",
        "The 2026 family holiday budget was £5,000; Lisbon and the Easter trip to Northumberland came to £4,310 "
        "together.",
    )
    n.day("11-03")
    n(ASSIST, "Holiday budget 2027", "For 2027 Lena and Sam set the holiday budget at £5,500.", cat="decision")
    n.day("11-10")
    n(ASSIST, "Gift for Grace", "Ordered a cashmere scarf for Grace's birthday on 2 Dec, £65; arrives by 27 Nov.")
    n.day("11-12")
    n(ASSIST, "Tyres", "Replace the Octavia's rear tyres before Christmas (the MOT advisory).", cat="commitment")
    n.day("11-15")
    n(
        ASSIST,
        "Christmas food",
        """
      Christmas at Irene's, who brings what:
      - Irene: turkey and the trimmings
      - Lena: salmon en croûte (her main) and the Christmas pudding
      - Tom and Jess: cheese and wine
      - Sam: roast potatoes and the cranberry sauce
      """,
    )
    n.day("11-19")
    n(ASSIST, "Knee routine", "Lena's knee exercises after discharge: Tuesdays, and Saturdays after parkrun.")
    n.day("11-21")
    n(ASSIST, "Vitamin D", "Lena takes vitamin D, 10 micrograms a day, from October to March.")
    n.day("11-23")
    n(
        ASSIST,
        "Christmas fair",
        "Bankside Christmas fair: Fri 4 Dec, 15:15-17:00. Lena is on the tombola stall.",
        cat="commitment",
    )
    n.day("11-24")
    n(ASSIST, "Commute in miles", "Lena's cycle to the office is about 4 miles each way.")
    n.day("11-26")
    n(SCHED, "Midweek office", "Lena is at the Tallyworks Leeds office midweek, Tuesday to Thursday.")
    n.day("11-27")
    n(ASSIST, "Grace's scarf arrived", "Grace's scarf arrived on 26 Nov; wrapped and ready for 2 Dec.")
    n.day("11-28")
    n(ASSIST, "Noor's EpiPens", "Noor's EpiPens: one in her bag, one in the school office; both expire in March 2027.")
    n.day("11-29")
    n(ASSIST, "Advent", "Advent calendars bought for both kids; Sam hangs them up on 30 Nov.")


def a_more(n: Writer) -> None:
    """Persona a: more of the same sessions: paging, measurements by week, restatements in other words."""
    n.day("09-01")
    n(
        SCHED,
        "1:1 with Ana, 1 Sep",
        "1:1 with Ana, 1 Sep: back-to-school week; agreed Lena writes the read-replica RFC this month.",
        at="15:40",
    )
    n.day("09-03")
    n(
        CODER,
        "Atlas paging policy",
        "Atlas pages the on-call engineer for P1 and P2 alerts at any hour; P3 alerts go to #atlas-alerts in Slack "
        "only.",
    )
    n.day("09-04")
    n(
        CODER,
        "Orbit paging policy",
        "Orbit doesn't page at night for P3 alerts either; they wait for Orbit's morning triage.",
    )
    n.day("09-07")
    n(ASSIST, "Felix's reading book", "Felix's school reading book comes home on Mondays and goes back on Fridays.")
    n.day("09-09")
    n(
        CODER,
        "Atlas DB timeout in ms",
        "In atlas-api's config the api role's statement timeout is ATLAS_DB_STATEMENT_TIMEOUT_MS=5000.",
    )
    n.day("09-16")
    n(ASSIST, "Biscuit's daily food", "Biscuit eats 240 g of dry food a day in total.")
    n.day("09-17")
    n(CODER, "Posting p95, week of 7 Sep", "Posting p95 for the week of 7 Sep: 214 ms (SLO: under 250 ms).")
    n.day("09-18")
    n(
        SCHED,
        "Childcare week",
        """
      Who has the kids after school:
      - Mon: Lena, 15:15
      - Tue: after-school club, Sam at 17:30
      - Wed: Sam, then Noor's swimming
      - Thu: after-school club, Sam at 17:30
      - Fri: Lena, 15:15
      """,
    )
    n.day("09-26")
    n(ASSIST, "Parkrun count", "Lena's parkrun total is 146 runs after 26 Sep.")
    n.day("10-01")
    n(
        CODER,
        "Batch jobs",
        "Atlas batch jobs (nightly export, balance snapshots) connect with the batch role and may run a query for up "
        "to 2 minutes.",
    )
    n.day("10-10")
    n(
        CODER,
        "Posting p95, week of 5 Oct",
        "Posting p95 for the week of 5 Oct: 182 ms, down after the v2.17.0 query fixes.",
    )
    n.day("10-12")
    n(
        ASSIST,
        "Leave allowance",
        "Tallyworks gives 25 days of annual leave plus bank holidays; Lena's Lisbon week used 5 of them.",
    )
    n.day("10-16")
    n(
        SCHED,
        "Interview 16 Oct",
        "Lena interviewed a second senior backend candidate on 16 Oct at 11:30 (system design round).",
    )
    n.day("10-21")
    n(ASSIST, "Talk recording", "Northern Data Summit will post the talk recordings in about a month.")
    n.day("10-22")
    n(CODER, "Platform leave in December", "Platform team leave booked for December: 38 days across the eight of us.")
    n.day("11-04")
    n(SCHED, "Interview 4 Nov", "Lena interviewed a third senior backend candidate on 4 Nov, 13:00 (system design).")
    n.day("11-07")
    n(ASSIST, "Babysitting cost", "Holly's evening on 7 Nov: 4.5 hours at £12, so £54.", at="23:45")
    n.day("11-13")
    n(CODER, "Posting p95, week of 9 Nov", "Posting p95 for the week of 9 Nov: 171 ms.")
    n.day("11-14")
    n(ASSIST, "Parkrun 150", "14 Nov was Lena's 150th parkrun; the milestone T-shirt is on its way.")
    n.day("11-18")
    n(
        CODER,
        "Report endpoints p95",
        "/reports p95 on the replica for the rest of 18 Nov after the switch-on: 205 ms; the postings API p95 that day "
        "was 168 ms.",
    )
    n.day("11-20")
    n(ASSIST, "Talk recording online", "The Northern Data Summit recording of Lena's talk went online on 20 Nov.")
    n.day("11-22")
    n(ASSIST, "Sunday 22 Nov", "Golden Acre Park walk with Biscuit on 22 Nov; frost in the morning, 2 °C.")
    n.day("11-23")
    n(ASSIST, "Felix's reading", "Felix started orange-band reading books on 23 Nov.")
    n.day("11-25")
    n(
        SCHED,
        "Platform sync 25 Nov",
        "Platform sync, 25 Nov: Greta's access review is closed with no findings for Atlas; Ollie is leading the "
        "Terraform upgrade, with Ben reviewing.",
    )
    n.day("11-29")
    n(
        ASSIST,
        "Week ahead (30 Nov-6 Dec)",
        """
      Week ahead, 30 Nov-6 Dec:
      - Mon 30: Atlas planning; Lena on call from 10:00; Beavers
      - Tue 1 Dec: car insurance renews; 1:1 with Ana
      - Wed 2 Dec: Grace's birthday; Noor swimming
      - Fri 4 Dec: Atlas release; Christmas fair 15:15, tombola
      """,
    )


# ---------------------------------------------------------------------------------------------------------------------
# Persona b: Hannah Okafor, senior product manager at Clinicly (Toronto), PM of Beacon and Tern. Agents: pm-copilot,
# assistant, calendar, coach.


def b_september(n: Writer) -> None:
    n.day("09-01")
    n(
        HELPER,
        "About Hannah",
        "Hannah Okafor is a senior product manager at Clinicly, a Toronto health-tech company that makes appointment "
        "software for clinics. She is the PM for Beacon and Tern.",
        source="user_stated",
    )
    n(
        HELPER,
        "Hannah's household",
        "Hannah lives in Leslieville, Toronto, with her partner Marcus Reyes, their daughter Ivy (3) and Pepper, a "
        "seven-year-old tabby cat.",
        source="user_stated",
    )
    n(
        PM,
        "Beacon",
        "Beacon is Clinicly's appointment reminder service: it texts and emails patients before their appointments. "
        "Backend in Kotlin (Spring Boot) on Postgres 16; backend lead Kofi Mensah.",
    )
    n(PM, "Tern", "Tern is the patient mobile app (React Native, iOS and Android); mobile lead Matteo Bianchi.")
    n(
        CAL,
        "Office days",
        "Hannah is in the Clinicly office on King St West on Tuesdays and Thursdays and works from home the other "
        "weekdays.",
        ref="calendar:working-location",
    )
    n(
        HELPER,
        "Coffee",
        "Hannah has two coffees a day, both before noon; black, no sugar.",
        cat="preference",
        source="user_stated",
    )

    n.day("09-02")
    n(
        CAL,
        "1:1 with Dana",
        "Hannah's 1:1 with her manager Dana Whitfield (VP Product) is every other Wednesday at 10:00; first of the "
        "season on 2 Sep.",
        ref="calendar:series/dana-hannah",
    )
    n(
        PM,
        "1:1 with Dana, 2 Sep",
        "1:1 with Dana, 2 Sep: Q4 planning starts mid-September; Dana wants Beacon's no-show numbers for Q3 by the "
        "end of the month.",
        at="10:45",
    )
    n(
        PM,
        "Relay",
        "Relay is Clinicly's messaging gateway (SMS through Twilio, email through SendGrid), owned by Lucía Torres on "
        "the platform team. Beacon sends everything through Relay.",
    )
    n(
        HELPER,
        "Marcus",
        "Marcus teaches chemistry at Eastdale Collegiate. His birthday is 30 September.",
        source="user_stated",
    )
    n(
        COACH,
        "Race goal",
        "Hannah's goal race this autumn is the Lakeshore Half Marathon on Sun 18 Oct; target 1:55:00, about 5:27 per "
        "km.",
        source="user_stated",
    )

    n.day("09-03")
    n(
        PM,
        "Beacon reminder timing",
        "By default Beacon sends two reminders: 48 hours and 2 hours before the appointment.",
    )
    n(
        PM,
        "Beacon clinic setting",
        "Clinics can choose a 24-hour first reminder instead of the 48-hour default; the 2-hour reminder is the same "
        "for everyone.",
    )
    n(CAL, "Daycare", "Ivy goes to Little Maples Daycare, open 07:30-18:00 on weekdays. Hannah drops her off at 08:00.")
    n(
        COACH,
        "Training week",
        "Training plan: tempo run Tuesday, easy 8 km Thursday, easy 6 km Saturday at 07:00, long run Sunday. No running "
        "on Mondays and Fridays.",
        cat="decision",
    )
    n(
        HELPER,
        "Pepper",
        "Pepper is an indoor cat. She gets two pouches of wet food a day (85 g each) and a small handful of dry food.",
    )

    n.day("09-04")
    n(PM, "Tern release cadence", "Tern ships to the App Store and Google Play every four weeks, on Tuesdays.")
    n(PM, "Beacon release cadence", "Beacon backend releases every two weeks, on Tuesdays.")
    n(
        HELPER,
        "Daycare pickup",
        "Marcus picks Ivy up from Little Maples at 16:30 on Mondays, Tuesdays, Wednesdays and Fridays; Hannah picks "
        "her up at 17:15 on Thursdays, when Marcus runs the robotics club.",
    )
    n(
        CAL,
        "Raj 1:1",
        "Weekly 1:1 with Raj Mehta (engineering manager for Beacon and Tern), Mondays at 13:00.",
        ref="calendar:series/raj-hannah",
    )

    n.day("09-05")
    n(COACH, "Easy run 5 Sep", "Sat 5 Sep: easy 6 km in 36:10.")
    n(
        HELPER,
        "Ivy gymnastics",
        "Ivy does parent-and-tot gymnastics on Saturdays, 09:30-10:15, at the Matty Eckler community centre.",
    )
    n(HELPER, "Ivy's birthday", "Ivy's birthday is 9 January; she turns 4 in 2027.", source="user_stated")

    n.day("09-06")
    n(COACH, "Long run 6 Sep", "Sunday long run, 6 Sep: 16 km along the Martin Goodman Trail, average 6:08/km.")
    n(COACH, "Half marathon history", "Hannah ran the Mississauga half marathon in May 2024 in 1:58:40.")

    n.day("09-07")
    n(
        HELPER,
        "Labour Day",
        "Labour Day, Mon 7 Sep: no 1:1 with Raj; picnic at Withrow Park with Marcus's sister Elena and her kids.",
    )
    n(
        HELPER,
        "Elena",
        "Marcus's sister Elena lives in Scarborough with her husband Tomás and two boys, Leo (7) and Mateo (5).",
    )

    n.day("09-08")
    n(
        PM,
        "Beacon 3.12",
        "Beacon 3.12 released Tue 8 Sep: per-clinic quiet hours for reminders (by default no texts between 21:00 and "
        "08:00 local time; a reminder due inside quiet hours goes out before 21:00 the evening before).",
        ref="jira:BCN-release-3.12",
    )
    n(COACH, "Tempo 8 Sep", "Tempo run, 8 Sep: 2 km warm-up, 5 km at 5:15/km, 1 km cool-down.")
    n(PM, "Beacon standup", "Beacon standup is daily at 09:30, 15 minutes.")
    n(HELPER, "Streetcar commute", "Hannah takes the 501 Queen streetcar to the office; about 35 minutes door to door.")

    n.day("09-09")
    n(PM, "Q3 no-show numbers", "Beacon clinics' no-show rate in Q3 was 11.2% (July-August data, September partial).")
    n(
        PM,
        "Juniper",
        "Juniper is the analytics dashboard for clinic admins; its PM is Noah Fischer, not Hannah. Juniper refreshes "
        "nightly at 03:00 Eastern.",
    )
    n(HELPER, "Marcus coffee", "Marcus drinks decaf only.", cat="preference")

    n.day("09-10")
    n(COACH, "Easy run 10 Sep", "Thu 10 Sep: easy 8 km, 48:30, heart rate mostly in zone 2.")
    n(
        PM,
        "Tern standup",
        "Tern standup is on Tuesdays and Thursdays at 10:00; the other days the Tern team posts updates in Slack.",
    )
    n(CAL, "Office 10 Sep", "Thursday 10 Sep: office day; Tern standup 10:00, design review with Sofia at 14:00.")
    n(
        PM,
        "Design review 10 Sep",
        "Design review with Sofia Almeida, 10 Sep: Tern's new appointment card. Patients want the clinic's address "
        "and a map link on the card.",
    )

    n.day("09-11")
    n(
        HELPER,
        "Dana's preferences",
        "Dana likes bullet-point status updates posted in #product-updates on Friday afternoons, not long documents.",
        cat="preference",
    )
    n(
        PM,
        "Friday update 11 Sep",
        """
      #product-updates, 11 Sep (Hannah):
      - Beacon 3.12 live (quiet hours, at="15:30")
      - Tern 5.4 in review for 15 Sep
      - Q3 no-show 11.2%
      - Two-way confirmation pilot: scoping with Maple Family Health
      """,
    )

    n.day("09-12")
    n(COACH, "Easy run 12 Sep", "Sat 12 Sep: easy 6 km, 35:55.")
    n(HELPER, "Gymnastics 12 Sep", "Ivy did a forward roll on her own at gymnastics on 12 Sep.")

    n.day("09-13")
    n(COACH, "Long run 13 Sep", "Long run 13 Sep: 18 km, 6:02/km average, last 3 km at goal pace.")
    n(
        COACH,
        "Shoes",
        "Hannah runs easy and long runs in Brooks Ghost 16 and tempo runs and races in Saucony Endorphin Speed 4.",
        cat="preference",
    )

    n.day("09-14")
    n(
        CAL,
        "Raj 1:1, 14 Sep",
        "1:1 with Raj, 14 Sep: Tern 5.4 release readiness; Kofi's team capacity for the two-way pilot in October.",
        at="13:45",
    )
    n(
        PM,
        "Two-way confirmation pilot",
        "Beacon two-way confirmation: patients reply C to confirm or R to reschedule. Pilot with 12 Maple Family "
        "Health clinics from Mon 19 Oct.",
        ref="notion:beacon/two-way-pilot",
    )
    n(HELPER, "Pepper's vet", "Pepper's annual check-up at Leslieville Animal Clinic is on Tue 24 Nov at 17:45.")

    n.day("09-15")
    n(
        PM,
        "Tern 5.4",
        "Tern 5.4 shipped Tue 15 Sep: appointment cards with the clinic's address and a map link.",
        ref="appstore:tern/5.4",
    )
    n(COACH, "Tempo 15 Sep", "Tempo, 15 Sep: 6 km at 5:14/km.")
    n(
        PM,
        "Android staged rollout",
        "Tern's Android releases roll out in stages: 10% on day one, 50% on day three, 100% on day seven.",
    )

    n.day("09-16")
    n(
        CAL,
        "1:1 with Dana, 16 Sep",
        "1:1 with Dana, 16 Sep: Q4 OKR drafts; Dana asked for a target on no-shows in the pilot clinics.",
        at="10:45",
    )
    n(
        PM,
        "Q4 OKR draft",
        "Q4 OKR draft for Beacon: cut the no-show rate in the pilot clinics from 11% to 9% by 31 Dec.",
        cat="decision",
    )
    n(HELPER, "Dana and coffee", "Dana doesn't drink coffee; she brings her own matcha.", cat="preference")

    n.day("09-17")
    n(COACH, "Easy 17 Sep", "Thu 17 Sep: easy 8 km in the rain, 49:10.")
    n(PM, "User research budget", "Hannah's product research budget for 2026 is CAD 18,000.")
    n(
        PM,
        "Interview incentives",
        "Research participants get a $50 gift card each; the front-desk study has a $1,500 budget for 30 participants.",
    )

    n.day("09-18")
    n(
        PM,
        "Friday update 18 Sep",
        """
      #product-updates, 18 Sep (Hannah):
      - Tern 5.4 out on 15 Sep, Android at 50%
      - Q4 OKR draft sent to Dana
      - Front-desk interviews start 22 Sep
      """,
        at="15:30",
    )
    n(
        HELPER,
        "Pizza Friday",
        "Friday night is pizza night at home; Marcus's is always the vegetarian one.",
        cat="preference",
    )

    n.day("09-19")
    n(COACH, "Easy run 19 Sep", "Sat 19 Sep: easy 6 km, 36:02.")
    n(HELPER, "Garden", "Hannah volunteers as web coordinator for the Greenwood Community Garden and has plot 23.")

    n.day("09-20")
    n(COACH, "Long run 20 Sep", "Long run, 20 Sep: 19 km at 6:00/km; gel at 40 and 80 minutes.")
    n(HELPER, "Garden workday", "Garden workday on 20 Sep: cleared plot 23's tomatoes; garlic goes in mid-October.")

    n.day("09-21")
    n(
        CAL,
        "Raj 1:1, 21 Sep",
        "1:1 with Raj, 21 Sep: Kofi's team gives the two-way pilot two engineers from 28 Sep.",
        at="13:45",
    )
    n(
        PM,
        "Relay limits",
        "Relay sends at most 30 SMS per second per sender number (Twilio's limit for our number type).",
    )

    n.day("09-22")
    n(
        PM,
        "Beacon 3.13",
        "Beacon 3.13 released 22 Sep: reminder templates per clinic language (English and French).",
        ref="jira:BCN-release-3.13",
    )
    n(
        PM,
        "Front-desk interview 1",
        "Front-desk interview #1 (22 Sep), a receptionist at a family practice in Etobicoke: she phones every patient "
        "who hasn't confirmed, about 40 calls a day.",
    )
    n(COACH, "Tempo 22 Sep", "Tempo 22 Sep: 7 km at 5:12/km; felt strong.")

    n.day("09-23")
    n(
        PM,
        "Front-desk interview 2",
        "Front-desk interview #2 (23 Sep), a physiotherapy clinic in Vaughan: they already use Beacon's 24-hour "
        "reminder setting and still see Monday no-shows.",
    )
    n(
        HELPER,
        "Wednesday library",
        "Marcus takes Ivy to story time at the Pape/Danforth library on Wednesdays at 17:00.",
    )

    n.day("09-24")
    n(COACH, "Easy 24 Sep", "Thu 24 Sep: easy 8 km, 48:45.")
    n(
        PM,
        "Front-desk interview 3",
        "Front-desk interview #3 (24 Sep), a dental office downtown: patients reply to reminders with free text "
        '("yes", "ok see you"), which nobody reads today.',
    )
    n(PM, "Juniper deploys", "Juniper deploys on Thursdays; Noah posts the notes in #juniper.")

    n.day("09-25")
    n(
        PM,
        "Friday update 25 Sep",
        """
      #product-updates, 25 Sep (Hannah):
      - Beacon 3.13 (French templates) live
      - Front-desk interviews: 3 done, 27 to go
      - Tern 5.4 at 100% on Android
      """,
        at="15:30",
    )
    n(
        HELPER,
        "Marcus's birthday plan",
        "Marcus's birthday is Wed 30 Sep: dinner at Ascari Enoteca on Queen East at 19:00, Elena babysitting.",
    )

    n.day("09-26")
    n(COACH, "Easy 26 Sep", "Sat 26 Sep: easy 6 km, 35:40.")
    n(HELPER, "Birthday present", "Present for Marcus: a 1970s periodic-table poster, framed; picked up 26 Sep.")

    n.day("09-27")
    n(COACH, "Long run 27 Sep", "Long run 27 Sep: 21 km in 2:07:10 (6:03/km), the longest of the block.")
    n(COACH, "Weekly distance 21-27 Sep", "Week of 21-27 Sep: 42 km in four runs.")

    n.day("09-28")
    n(
        CAL,
        "Raj 1:1, 28 Sep",
        "1:1 with Raj, 28 Sep: two engineers on the two-way pilot from today; Relay needs inbound SMS routing.",
        at="13:45",
    )
    n(
        PM,
        "Relay inbound SMS",
        "Relay will route inbound SMS replies to Beacon for the two-way pilot: Lucía's team adds a webhook per sender "
        "number.",
    )

    n.day("09-29")
    n(
        PM,
        "Relay delay 29 Sep",
        "Relay incident, 29 Sep, 09:10-10:00: Twilio carrier delays on Rogers numbers; about 6,000 Beacon reminders "
        "arrived up to 50 minutes late.",
        ref="statuspage:relay/2026-09-29",
    )
    n(
        PM,
        "Q4 planning offsite",
        "Q4 planning offsite, 29 Sep (product and engineering leads): Beacon pilot is the top Q4 bet; Tern's Q4 theme "
        "is accessibility.",
    )
    n(COACH, "Tempo 29 Sep", "Tempo, 29 Sep: 6 km at 5:10/km after the offsite.")

    n.day("09-30")
    n(
        HELPER,
        "Marcus's birthday",
        "Marcus's birthday dinner at Ascari Enoteca, 30 Sep: he had the mushroom risotto, Hannah the lamb ragù.",
        at="22:30",
    )
    n(
        CAL,
        "1:1 with Dana, 30 Sep",
        "1:1 with Dana, 30 Sep: Q4 OKRs final. Beacon's is the pilot no-show target; Tern's is a WCAG 2.2 AA audit "
        "pass.",
        at="10:45",
    )
    n(
        PM,
        "Q4 OKRs",
        """
      Q4 OKRs (Hannah's products):
      - Beacon: no-show rate in the 12 pilot clinics from 11% to 9% by 31 Dec
      - Tern: pass a WCAG 2.2 AA audit by 15 Dec
      - Tern: crash-free sessions at 99.5% or better
      """,
        cat="decision",
    )


def b_october(n: Writer) -> None:
    n.day("10-01")
    n(COACH, "Easy 1 Oct", "Thu 1 Oct: easy 8 km, 48:20.")
    n(
        PM,
        "Front-desk interviews 4-6",
        "Front-desk interviews #4-#6 (29 Sep-1 Oct): all three clinics phone unconfirmed patients the day before; two "
        "of them would stop if patients could reply to the text.",
    )
    n(
        CAL,
        "Office 1 Oct",
        "Thu 1 Oct in the office: Tern standup 10:00; accessibility kickoff with Matteo and Sofia at 13:30.",
    )
    n(
        PM,
        "Tern accessibility kickoff",
        "Tern accessibility kickoff, 1 Oct: the biggest gaps are Dynamic Type on iOS and missing labels on icon "
        "buttons. Fixes planned across Tern 5.5 and 5.6.",
    )

    n.day("10-02")
    n(
        PM,
        "Friday update 2 Oct",
        """
      #product-updates, 2 Oct (Hannah):
      - Q4 OKRs final (pilot no-shows; WCAG 2.2 AA, at="15:30")
      - Relay inbound SMS webhook in test
      - Interviews: 6 of 30
      """,
    )
    n(
        HELPER,
        "Marcus vegetarian",
        "Marcus is vegetarian; Hannah eats everything except pork.",
        cat="preference",
        source="user_stated",
    )

    n.day("10-03")
    n(COACH, "Easy 3 Oct", "Sat 3 Oct: easy 6 km, 35:50.")
    n(HELPER, "Gymnastics 3 Oct", "Marcus took Ivy to gymnastics on 3 Oct; Hannah ran first and met them there.")

    n.day("10-04")
    n(COACH, "Long run 4 Oct", "Long run, 4 Oct: 18 km at 5:58/km, the start of the taper.")
    n(
        COACH,
        "Taper plan",
        "Taper: long runs of 18 km (4 Oct) and 14 km (11 Oct), then race day on 18 Oct. Tempo runs shorten to 5 km.",
        cat="decision",
    )

    n.day("10-05")
    n(
        CAL,
        "Raj 1:1, 5 Oct",
        "1:1 with Raj, 5 Oct: inbound SMS webhook passes in staging; the pilot's go-live on 19 Oct stands.",
        at="13:45",
    )
    n(
        HELPER,
        "Garden meeting",
        "Greenwood Community Garden meets on the first Monday of the month at 19:00; 5 Oct agenda: the fall cleanup "
        "and the new website photos.",
    )
    n(
        PM,
        "Pilot clinics",
        "The two-way pilot's 12 clinics are all Maple Family Health sites in the east end; between them they book "
        "about 9,000 appointments a month.",
    )

    n.day("10-06")
    n(
        PM,
        "Beacon 3.14",
        "Beacon 3.14 released Tue 6 Oct: inbound replies (C / R) read and logged, behind the two_way_confirm flag.",
        ref="jira:BCN-release-3.14",
    )
    n(COACH, "Tempo 6 Oct", "Tempo, 6 Oct: 5 km at 5:10/km.")
    n(HELPER, "Ivy's daycare photos", "Little Maples photo day is Thu 8 Oct; Ivy wants to wear the yellow dress.")

    n.day("10-07")
    n(
        PM,
        "Relay inbound numbers",
        "Relay inbound for the pilot: each of the 12 pilot clinics gets its own sender number, so replies land with "
        "the right clinic.",
    )
    n(
        HELPER,
        "Thanksgiving plan",
        "Thanksgiving in Ottawa at Hannah's dad Samuel's: VIA Rail from Union on Sat 10 Oct at 08:00, back on Mon 12 "
        "Oct at 17:00.",
    )

    n.day("10-08")
    n(COACH, "Easy 8 Oct", "Thu 8 Oct: easy 8 km, 48:05.")
    n(
        PM,
        "Pilot training",
        "Trained front-desk leads from the 12 Maple clinics on 8 Oct (video, 45 minutes): confirmations show up as a "
        "green tick on their schedule; R replies create a call-back task.",
    )
    n(
        HELPER,
        "Dad",
        "Hannah's dad, Samuel Okafor, is a retired civil engineer in Ottawa (the Glebe). His birthday is 22 October.",
        source="user_stated",
    )

    n.day("10-09")
    n(
        PM,
        "Friday update 9 Oct",
        """
      #product-updates, 9 Oct (Hannah):
      - Beacon 3.14: inbound replies logged (flag off, at="15:30")
      - Pilot training done with all 12 Maple clinics
      - Tern 5.5 goes out Tue 13 Oct with Dynamic Type support
      - Off Mon 12 Oct (Thanksgiving)
      """,
    )
    n(
        HELPER,
        "Packing for Ottawa",
        "Packing for Ottawa: Ivy's car seat for Dad's car, the pumpkin pie (Marcus bakes it Friday night), running "
        "kit for Sunday.",
    )

    n.day("10-10")
    n(HELPER, "Train to Ottawa", "On the 08:00 VIA train to Ottawa, 10 Oct; arrives 12:25.")
    n(HELPER, "Dad's car", "Samuel drives a 2015 Toyota Camry; he picked us up at Ottawa station.")

    n.day("10-11")
    n(COACH, "Long run 11 Oct", "Long run in Ottawa, 11 Oct: 14 km along the Rideau Canal at 5:55/km.")
    n(
        HELPER,
        "Car-free",
        "Hannah and Marcus don't own a car; in Toronto they use Communauto car share when they need one.",
    )

    n.day("10-12")
    n(
        HELPER,
        "Thanksgiving dinner",
        "Thanksgiving dinner at Dad's on 12 Oct (lunchtime): turkey, Marcus's pumpkin pie, and a nut roast for Marcus.",
        at="15:00",
    )
    n(HELPER, "Back from Ottawa", "Back at Union Station at 21:30 on 12 Oct.", at="21:45")

    n.day("10-13")
    n(
        PM,
        "Tern 5.5",
        "Tern 5.5 shipped Tue 13 Oct: Dynamic Type on iOS, font scaling on Android.",
        ref="appstore:tern/5.5",
    )
    n(COACH, "Tempo 13 Oct", "Tempo, 13 Oct: 5 km at 5:12/km. Legs fresh.")
    n(CAL, "Race week", "Race week: no runs on Mon 12 (travel) or Fri 16; easy 6 km Thu 15; shakeout 3 km Sat 17.")

    n.day("10-14")
    n(
        CAL,
        "1:1 with Dana, 14 Oct",
        "1:1 with Dana, 14 Oct: pilot readiness; Dana will join the Maple kickoff call on 19 Oct at 08:30.",
        at="10:45",
    )
    n(PM, "Sofia's birthday", "Sofia Almeida's birthday is 14 October; the design team took her out for lunch.")

    n.day("10-15")
    n(COACH, "Easy 15 Oct", "Thu 15 Oct: easy 6 km, 36:00.")
    n(
        PM,
        "Kofi on the pilot",
        'Kofi says the pilot\'s reply parsing accepts C, c, Yes, Y and "confirm" as a confirmation; anything else '
        "goes to the clinic as free text.",
    )

    n.day("10-16")
    n(
        COACH,
        "Race logistics",
        "Lakeshore Half: start 08:00 at Exhibition Place, corral C. Bib pickup Fri 16 Oct until 19:00.",
    )
    n(
        PM,
        "Friday update 16 Oct",
        "#product-updates, 16 Oct: Tern 5.5 on iOS 100%, Android at 100% on the 19th; pilot goes live Monday.",
        at="15:30",
    )
    n(
        COACH,
        "Race plan",
        "Race plan: first 5 km at 5:35/km, then 5:25/km to 18 km, then whatever is left. Gels at 40 and 80 minutes.",
    )

    n.day("10-17")
    n(COACH, "Shakeout 17 Oct", "Shakeout, 17 Oct: 3 km easy with 4 strides.")
    n(HELPER, "Garlic planting", "Planted garlic in plot 23 on 17 Oct: 40 cloves, hardneck, in four rows.")

    n.day("10-18")
    n(
        COACH,
        "Lakeshore Half result",
        "Lakeshore Half Marathon, 18 Oct: 1:54:12, under the 1:55 target. Hannah's fastest half marathon.",
        source="user_stated",
        at="11:00",
    )
    n(
        COACH,
        "Race splits",
        "Splits, 18 Oct: 5 km 27:45, 10 km 54:50, 15 km 1:21:40, finish 1:54:12. Negative second half.",
    )
    n(HELPER, "Race day", "Marcus and Ivy cheered at the 19 km mark on Lake Shore Boulevard.")

    n.day("10-19")
    n(
        PM,
        "Pilot live",
        "Two-way confirmation pilot live in all 12 Maple clinics on Mon 19 Oct at 07:00; two_way_confirm on for those "
        "clinics only.",
        ref="notion:beacon/two-way-pilot",
    )
    n(CAL, "Raj 1:1, 19 Oct", "1:1 with Raj, 19 Oct: first replies coming in; Kofi on watch for the day.", at="13:45")
    n(
        COACH,
        "Recovery week",
        "Recovery after the race: no running until Thu 22 Oct, then easy runs only until 1 Nov.",
        cat="decision",
    )

    n.day("10-20")
    n(
        PM,
        "Beacon 3.15",
        "Beacon 3.15 released Tue 20 Oct: confirmation ticks on the clinic schedule view update within a minute of "
        "the reply.",
        ref="jira:BCN-release-3.15",
    )
    n(PM, "Pilot day 2", "Pilot, 20 Oct: 38% of patients texted so far replied C; 5% replied R.")

    n.day("10-21")
    n(
        PM,
        "Wen's analysis",
        "Wen Li will measure no-shows in the pilot clinics weekly against 6 comparable Maple-sized clinics outside "
        "the pilot.",
    )
    n(HELPER, "Ivy's words", "Ivy counted to twenty in French on 21 Oct (daycare does French songs on Wednesdays).")

    n.day("10-22")
    n(
        HELPER,
        "Dad's birthday",
        "Called Dad for his 68th birthday on 22 Oct; the parcel (a book on the Rideau Canal and maple fudge) "
        "arrived the day before.",
    )
    n(COACH, "Easy 22 Oct", "First run after the race, 22 Oct: easy 5 km, 31:00.")

    n.day("10-23")
    n(
        PM,
        "Friday update 23 Oct",
        """
      #product-updates, 23 Oct (Hannah):
      - Pilot week 1 (5 days): 41% confirm by text, 6% ask to reschedule
      - Beacon 3.15: ticks on the schedule
      - Tern 5.5 at 100% on both stores
      """,
        at="15:30",
    )
    n(
        PM,
        "Free-text replies",
        'About 9% of pilot replies in week 1 were free text ("running 10 min late", "who is this?"); they go to '
        "the clinic's inbox.",
    )

    n.day("10-24")
    n(COACH, "Easy 24 Oct", "Sat 24 Oct: easy 6 km, 36:20.")
    n(HELPER, "Halloween costume", "Ivy's Halloween costume: a bumblebee; Hannah ordered wings on 24 Oct.")

    n.day("10-25")
    n(COACH, "Easy long run 25 Oct", "Sun 25 Oct: easy 10 km, 1:01:00.")

    n.day("10-26")
    n(
        CAL,
        "Raj 1:1, 26 Oct",
        "1:1 with Raj, 26 Oct: the duplicate-message guard for inbound replies; Lucía joins next week.",
        at="13:45",
    )
    n(
        PM,
        "Pilot no-shows week 1",
        "Wen's first read, week of 19 Oct: pilot clinics 9.8% no-shows, comparison clinics 11.4%.",
    )

    n.day("10-27")
    n(COACH, "Easy 27 Oct", "Tue 27 Oct: easy 6 km instead of a tempo (recovery block).")
    n(PM, "ClinicTech Summit", "Hannah is on a panel about no-shows at ClinicTech Summit in Vancouver, 4-5 Nov.")

    n.day("10-28")
    n(
        CAL,
        "1:1 with Dana, 28 Oct",
        "1:1 with Dana, 28 Oct: pilot numbers; what Hannah can share on the Vancouver panel (rates, not clinic names).",
        at="10:45",
    )
    n(HELPER, "Vancouver stay", "In Vancouver Hannah stays with her sister Chioma in Kitsilano.")

    n.day("10-29")
    n(COACH, "Easy 29 Oct", "Thu 29 Oct: easy 8 km, 48:40.")
    n(HELPER, "Chioma", "Hannah's sister Chioma is a pharmacist in Vancouver; her birthday is 5 December.")

    n.day("10-30")
    n(
        PM,
        "Friday update 30 Oct",
        "#product-updates, 30 Oct: pilot week 2 at 44% C and 6% R; no-shows in pilot clinics 9.8% for the first "
        "week; Hannah away 3-6 Nov for ClinicTech.",
        at="15:30",
    )
    n(HELPER, "Daylight saving", "Clocks go back on Sun 1 Nov in Toronto.")

    n.day("10-31")
    n(
        HELPER,
        "Halloween",
        "Halloween, 31 Oct: Ivy went trick-or-treating on our street from 17:30 to 18:45 as a bumblebee; Marcus handed "
        "out candy.",
        at="19:30",
    )
    n(COACH, "Easy 31 Oct", "Sat 31 Oct: easy 6 km, 36:05.")


def b_november(n: Writer) -> None:
    n.day("11-01")
    n(COACH, "Easy 1 Nov", "Sun 1 Nov: easy 12 km, 1:12:30, last run of the recovery block.")
    n(
        HELPER,
        "Week ahead (2-8 Nov)",
        """
      Week ahead, 2-8 Nov:
      - Mon 2: 1:1 with Raj 13:00; garden meeting 19:00
      - Tue 3: Beacon 3.16 release; fly to Vancouver 08:00
      - Wed 4-Thu 5: ClinicTech Summit (panel Wed 14:00 PT)
      - Fri 6: fly home 13:00 PT, land 20:40 ET
      - Sat 7: gymnastics; easy run
      """,
    )

    n.day("11-02")
    n(
        CAL,
        "Raj 1:1, 2 Nov",
        "1:1 with Raj, 2 Nov: Beacon 3.16 scope (reply deduplication); Raj covers pilot questions while Hannah is in "
        "Vancouver.",
        at="13:45",
    )
    n(
        PM,
        "Pilot week 2 numbers",
        "Wen's read for the week of 26 Oct: pilot clinics 9.5% no-shows, comparison clinics 11.1%.",
    )
    n(
        HELPER,
        "Garden meeting 2 Nov",
        "Garden meeting, 2 Nov: plot fees for 2027 stay at $40; Hannah updates the website's sign-up form by January.",
        at="21:00",
    )

    n.day("11-03")
    n(
        PM,
        "Beacon 3.16",
        "Beacon 3.16 released Tue 3 Nov: a patient's repeated replies to one reminder count once.",
        ref="jira:BCN-release-3.16",
    )
    n(
        HELPER,
        "Flight to Vancouver",
        "Flight to Vancouver, Tue 3 Nov: AC 113, YYZ 08:00, arrives YVR 10:05 local. Seat 23A (window).",
        ref="email:aircanada-booking",
    )
    n(HELPER, "Arrived Vancouver", "Landed in Vancouver on 3 Nov; Chioma picked Hannah up.")

    n.day("11-04")
    n(
        PM,
        "ClinicTech panel",
        "ClinicTech Summit panel, 4 Nov, 14:00 PT: \"Why patients don't show up\". Hannah shared the pilot's rates "
        "without clinic names.",
        at="18:30",
    )
    n(
        PM,
        "Summit notes day 1",
        """
      ClinicTech Summit, day 1 notes:
      - Two other vendors run two-way SMS; both see 40-50% of patients reply
      - A BC health authority sends reminders 72 hours ahead (BC, not our clinics)
      - Several clinics asked about WhatsApp; Relay does not send WhatsApp messages
      """,
    )

    n.day("11-05")
    n(
        PM,
        "Summit notes day 2",
        "ClinicTech day 2 (5 Nov): met two Alberta clinic groups interested in Beacon; follow-up calls to book in "
        "late November.",
    )
    n(
        HELPER,
        "Dinner with Chioma",
        "Dinner with Chioma and her partner Dev in Kitsilano on 5 Nov; Chioma is coming to Toronto for Christmas.",
    )

    n.day("11-06")
    n(HELPER, "Flight home", "Flight home, Fri 6 Nov: AC 120, YVR 13:00, landed YYZ 20:40.", at="21:30")

    n.day("11-07")
    n(COACH, "Easy 7 Nov", "Sat 7 Nov: easy 6 km, 35:30, first run back in the normal plan.")
    n(HELPER, "Gymnastics 7 Nov", "Ivy's gymnastics, 7 Nov: balance beam with a hand to hold.")

    n.day("11-08")
    n(COACH, "Long run 8 Nov", "Long run, 8 Nov: 15 km at 6:05/km, easy.")
    n(
        COACH,
        "Winter goal",
        "Next goal: the Santa Shuffle 5 km on Sat 5 Dec, for fun, with Marcus walking it with Ivy in the stroller.",
    )

    n.day("11-09")
    n(
        CAL,
        "Raj 1:1, 9 Nov",
        "1:1 with Raj, 9 Nov: Alberta leads go to sales; the pilot runs until general availability in January, as "
        "planned.",
        at="13:45",
    )
    n(
        PM,
        "Pilot week 3 numbers",
        "Pilot week 3 (week of 2 Nov): pilot clinics 9.3% no-shows, comparison clinics 11.3%; 46% of texted patients "
        "replied C.",
    )

    n.day("11-10")
    n(
        PM,
        "Tern 5.6",
        "Tern 5.6 shipped Tue 10 Nov: labels on every icon button; VoiceOver and TalkBack pass our internal checklist.",
        ref="appstore:tern/5.6",
    )
    n(COACH, "Tempo 10 Nov", "Tempo, 10 Nov: 5 km at 5:15/km, first tempo since the race.")

    n.day("11-11")
    n(
        CAL,
        "1:1 with Dana, 11 Nov",
        "1:1 with Dana, 11 Nov: Vancouver debrief; Dana wants the GA plan for two-way confirmation by 4 Dec.",
        at="10:45",
    )
    n(
        HELPER,
        "Remembrance Day",
        "Remembrance Day, 11 Nov: Marcus's school held an assembly at 10:45; Ivy's daycare made poppies.",
    )

    n.day("11-12")
    n(
        PM,
        "Beacon incident 12 Nov",
        "Beacon incident, Thu 12 Nov, 06:00-06:40: a retry bug sent duplicate 2-hour reminders to 340 patients at 4 "
        "clinics. Hotfix Beacon 3.16.1 at 09:15.",
        ref="jira:BCN-INC-88",
        at="09:40",
    )
    n(COACH, "Easy 12 Nov", "Thu 12 Nov: easy 8 km, 48:30.")
    n(
        PM,
        "Incident follow-up",
        "Follow-up on the 12 Nov duplicates: Kofi adds an idempotency key per reminder; clinics affected were emailed "
        "an apology by 14:00.",
    )

    n.day("11-13")
    n(
        PM,
        "Friday update 13 Nov",
        """
      #product-updates, 13 Nov (Hannah):
      - Tern 5.6: icon labels, screen readers
      - Beacon 3.16.1 hotfix for the 12 Nov duplicate reminders
      - Pilot week 3: 9.3% no-shows vs 11.3%
      """,
        at="15:30",
    )
    n(PM, "APM hiring", "Hannah is hiring an associate PM for Tern; first-round interviews run 16-27 Nov.")

    n.day("11-14")
    n(COACH, "Easy 14 Nov", "Sat 14 Nov: easy 6 km in the first snow, 37:10.")

    n.day("11-15")
    n(COACH, "Long run 15 Nov", "Long run 15 Nov: 16 km, 6:02/km, cold (-2 °C).")
    n(HELPER, "Winter tires? No car", "No winter tires to book: no car. Communauto membership renews in March.")

    n.day("11-16")
    n(
        CAL,
        "Raj 1:1, 16 Nov",
        "1:1 with Raj, 16 Nov: idempotency keys are in Beacon 3.17 tomorrow; the GA plan needs Relay capacity numbers.",
        at="13:45",
    )
    n(
        PM,
        "Pilot week 4 numbers",
        "Pilot week 4 (week of 9 Nov): pilot clinics 9.4% no-shows, comparison clinics 11.0%; 45% of texted patients "
        "replied C.",
    )
    n(
        PM,
        "APM interview 1",
        "APM interview #1, 16 Nov: strong on research, lighter on data; Hannah's write-up is in Greenhouse.",
    )

    n.day("11-17")
    n(
        PM,
        "Beacon 3.17",
        "Beacon 3.17 released Tue 17 Nov: idempotency key per reminder, so a retry can never send a second text.",
        ref="jira:BCN-release-3.17",
    )
    n(
        HELPER,
        "Rosa's birthday",
        "Marcus's mum Rosa's birthday is 17 November; an early birthday dinner at his parents' in Mississauga, 16:00 "
        "on Sunday 22 Nov.",
    )
    n(COACH, "Tempo 17 Nov", "Tempo, 17 Nov: 6 km at 5:12/km.")

    n.day("11-18")
    n(
        PM,
        "Relay capacity",
        "Relay capacity for GA: at 30 SMS per second per number, one number can send 108,000 texts an hour; Beacon's "
        "busiest hour sends about 4,000.",
    )
    n(PM, "APM interview 2", "APM interview #2, 18 Nov: good product sense; asked great questions about the pilot.")

    n.day("11-19")
    n(
        PM,
        "WCAG audit",
        "Tern's WCAG 2.2 AA audit with Access Partners started on 19 Nov; the report is due 10 Dec, ahead of the 15 "
        "Dec OKR date.",
    )
    n(COACH, "Easy 19 Nov", "Thu 19 Nov: easy 8 km, 48:15.")

    n.day("11-20")
    n(
        PM,
        "Friday update 20 Nov",
        "#product-updates, 20 Nov: Beacon 3.17 (idempotent reminders), Tern audit under way, pilot week 5 numbers "
        "Monday.",
        at="15:30",
    )
    n(
        HELPER,
        "Ivy's daycare concert",
        "Little Maples winter concert is Thu 10 Dec at 16:00; Ivy's room sings Jingle Bells.",
    )

    n.day("11-21")
    n(COACH, "Easy 21 Nov", "Sat 21 Nov: easy 6 km, 36:00.")
    n(
        HELPER,
        "Garden website",
        "Updated the Greenwood Community Garden website on 21 Nov: photos from the fall cleanup and the 2027 plot "
        "fee ($40).",
    )

    n.day("11-22")
    n(COACH, "Long run 22 Nov", "Long run, 22 Nov: 14 km, 6:00/km, in the morning before heading to Mississauga.")
    n(
        HELPER,
        "Rosa's dinner",
        "Dinner for Rosa's birthday at Marcus's parents' in Mississauga, 22 Nov; went by Communauto.",
        at="19:00",
    )

    n.day("11-23")
    n(CAL, "Raj 1:1, 23 Nov", "1:1 with Raj, 23 Nov: APM shortlist of two; GA plan draft reviewed.", at="13:45")
    n(
        PM,
        "Pilot week 5 numbers",
        "Pilot week 5 (week of 16 Nov): pilot clinics 9.1% no-shows, comparison clinics 11.2%; 47% of texted patients "
        "replied C.",
    )
    n(
        PM,
        "Alberta calls",
        "Follow-up calls with the two Alberta clinic groups booked for 26 and 27 Nov (sales leads, Hannah joins for "
        "product questions).",
    )

    n.day("11-24")
    n(
        HELPER,
        "Pepper at the vet",
        "Pepper's check-up on 24 Nov: healthy, 4.6 kg; teeth cleaning suggested next year.",
        at="19:00",
    )
    n(COACH, "Tempo 24 Nov", "Tempo, 24 Nov: 6 km at 5:10/km.")

    n.day("11-25")
    n(
        CAL,
        "1:1 with Dana, 25 Nov",
        "1:1 with Dana, 25 Nov: GA plan draft; Dana approves the January rollout to all Maple clinics first.",
        at="10:45",
    )
    n(
        PM,
        "GA plan",
        """
      Two-way confirmation GA plan (draft, 25 Nov):
      1. January: all Maple Family Health clinics
      2. February: clinics on the 24-hour reminder setting
      3. March: everyone else, clinic by clinic
      Relay: one inbound number per clinic, as in the pilot
      """,
        cat="decision",
    )

    n.day("11-26")
    n(
        PM,
        "Alberta call 1",
        "Alberta call, 26 Nov: 30 clinics, mostly family medicine; they want French templates too (we have them, since "
        "Beacon 3.13).",
    )
    n(COACH, "Easy 26 Nov", "Thu 26 Nov: easy 8 km, 48:00.")

    n.day("11-27")
    n(
        PM,
        "Alberta call 2",
        "Alberta call, 27 Nov: 8 physiotherapy clinics; they want the 24-hour reminder setting by default.",
    )
    n(
        PM,
        "Friday update 27 Nov",
        "#product-updates, 27 Nov: pilot week 5 at 9.1% no-shows; GA plan approved for January; APM final round next "
        "week.",
        at="15:30",
    )

    n.day("11-28")
    n(COACH, "Easy 28 Nov", "Sat 28 Nov: easy 6 km, 35:45.")
    n(
        HELPER,
        "Christmas plan",
        "Christmas at home in Toronto this year: Chioma and Dev fly in on 23 Dec; Dad comes on the train on 24 Dec.",
    )

    n.day("11-29")
    n(COACH, "Long run 29 Nov", "Long run, 29 Nov: 16 km at 5:58/km.")
    n(COACH, "November volume", "November running: 15 runs, 138 km.")

    n.day("11-30")
    n(
        CAL,
        "Raj 1:1, 30 Nov",
        "1:1 with Raj, 30 Nov: APM final interviews on 2 and 3 Dec; GA engineering estimate 3 weeks.",
        at="13:45",
    )
    n(
        PM,
        "November no-shows",
        "November to date, pilot clinics: 9.2% no-shows; comparison clinics 11.2%. The 9% target is for 31 Dec.",
    )
    n(
        HELPER,
        "November summary",
        """
      November in short:
      - ClinicTech Summit in Vancouver, 4-5 Nov (panel on no-shows)
      - Beacon 3.16, 3.16.1 hotfix, 3.17; Tern 5.6
      - Pilot: 9.2% no-shows in November to date vs 11.2% in comparison clinics
      - Running: 138 km, back to tempo runs
      - Rosa's birthday dinner on 22 Nov
      """,
        at="21:00",
    )


def b_work_extra(n: Writer) -> None:
    """Persona b: product notes written alongside the month's sessions (pm-copilot)."""
    n.day("09-01")
    n(PM, "Clinicly", "Clinicly has about 140 employees; the product group is 9 people, PMs and designers together.")
    n.day("09-02")
    n(PM, "Beacon volume", "Beacon sends about 120,000 reminders a week for about 1,100 clinics.")
    n.day("09-03")
    n(
        PM,
        "Beacon volume by day",
        "On a weekday Beacon sends about 23,000 reminders; on a Saturday about 4,000; on Sundays almost none, as most "
        "clinics are closed.",
    )
    n.day("09-04")
    n(PM, "Tern ratings", "Tern is rated 4.6 on the App Store and 4.3 on Google Play.")
    n.day("09-08")
    n(
        PM,
        "Beacon CI",
        "Beacon's repo is clinicly/beacon; CI runs on GitHub Actions and the full build takes about 18 minutes.",
    )
    n(PM, "Tern builds", "Tern builds on Bitrise: an iOS build takes about 25 minutes, an Android build about 14.")
    n.day("09-09")
    n(PM, "Juniper stack", "Juniper is built on Looker over BigQuery.")
    n.day("09-10")
    n(
        PM,
        "Relay stack",
        "Relay is written in Go and runs on GKE; it deploys several times a day, with no release train.",
    )
    n.day("09-11")
    n(
        PM,
        "Data residency",
        "Patient data stays in Canada: Beacon, Relay and Tern's backend run in Google Cloud's Toronto region, with "
        "backups in Montréal.",
        cat="decision",
    )
    n.day("09-14")
    n(PM, "Tern crash-free August", "Tern crash-free sessions in August: 99.3%.")
    n.day("09-15")
    n(PM, "Tern OS support", "Tern 5.x supports iOS 16 and later and Android 10 and later.")
    n.day("09-16")
    n(
        PM,
        "Other PMs",
        "The other PMs at Clinicly: Noah Fischer (Juniper), Priya Shah (billing), Ahmed Karimi (scheduling core).",
    )
    n.day("09-17")
    n(PM, "Design tools", "Sofia designs in Figma; Tern's design system is called Feather.")
    n.day("09-21")
    n(PM, "Research repository", "Research notes go into Dovetail, tagged by product and clinic type.")
    n.day("09-22")
    n(
        PM,
        "Cadences",
        "Tern works in four-week cycles that end with its release; Beacon in two-week sprints that end with its "
        "release.",
    )
    n.day("09-23")
    n(
        PM,
        "Kofi's style",
        "Kofi prefers to settle a design question on a quick call rather than in doc comments.",
        cat="preference",
    )
    n(PM, "Raj's style", "Raj prefers comments in the Google Doc to a meeting.", cat="preference")
    n.day("09-24")
    n(
        PM,
        "Matteo's mornings",
        "Matteo keeps his mornings until 11:00 free of meetings; the Tern standup at 10:00 is his one exception.",
        cat="preference",
    )
    n.day("09-29")
    n(PM, "OKR scoring", "Clinicly scores OKRs from 0 to 1; 0.7 counts as a good result.")
    n.day("09-30")
    n(
        PM,
        "Q3 OKR scores",
        "Hannah's Q3 OKRs scored 0.8 (Tern appointment cards) and 0.6 (Beacon French templates, shipped late in the "
        "quarter on 22 Sep).",
    )
    n.day("10-01")
    n(PM, "SMS cost", "Each Beacon text costs Clinicly about 1.1 cents through Twilio; an email costs next to nothing.")
    n.day("10-02")
    n(PM, "SMS bill", "Beacon's SMS bill is about CAD 5,300 a month, for roughly 480,000 texts.")
    n.day("10-05")
    n(PM, "Tern crash-free September", "Tern crash-free sessions in September: 99.4%.")
    n(PM, "Inbound SMS cost", "An inbound reply costs about 0.75 cents through Twilio.")
    n.day("10-06")
    n(PM, "Research budget 2027", "For 2027 Hannah asked for CAD 24,000 of research budget.")
    n.day("10-07")
    n(PM, "Large text users", "About 6% of Tern users have large text turned on in their phone settings.")
    n.day("10-08")
    n(PM, "Tern users", "Tern has about 210,000 monthly active users; 62% of them on iOS.")
    n.day("10-15")
    n(PM, "Interviews 12 of 30", "Front-desk study: 12 of 30 interviews done by 15 Oct.")
    n.day("10-16")
    n(PM, "Beacon on-call", "Beacon's on-call rotates weekly among Kofi's five engineers and hands over on Tuesdays.")
    n.day("10-19")
    n(PM, "Relay on-call", "Relay's on-call (Lucía's team) hands over on Mondays.")
    n.day("10-20")
    n(
        PM,
        "Wellness allowance",
        "Clinicly gives each employee $500 a year for wellness; Hannah spends hers on race entries.",
    )
    n.day("10-21")
    n(
        PM,
        "Offsite budget",
        "The product group's offsite budget for 2026 was $6,000; the 29 Sep offsite used $2,400 of it.",
    )
    n.day("10-22")
    n(
        PM,
        "Standups",
        "Standups: Beacon daily at 09:30, Tern Tuesdays and Thursdays at 10:00, Juniper daily at 09:15 (Hannah isn't "
        "in Juniper's).",
    )
    n.day("10-23")
    n(
        PM,
        "Deploy rhythm",
        "Release rhythm: Beacon every other Tuesday, Tern every fourth Tuesday, Juniper on Thursdays, Relay "
        "continuously.",
    )
    n.day("10-27")
    n(
        PM,
        "Panel numbers",
        "Numbers Hannah may share on the panel: reply rate around 44%, no-shows 9.8% in pilot clinics vs 11.4% in "
        "comparison clinics for the first week. No clinic names.",
    )
    n.day("10-30")
    n(PM, "Interviews 18 of 30", "Front-desk study: 18 of 30 interviews done by 30 Oct.")
    n.day("11-02")
    n(PM, "Tern crash-free October", "Tern crash-free sessions in October: 99.5%.")
    n(
        PM,
        "Retention",
        """
      Retention by system:
      - Beacon message logs: 2 years
      - Relay delivery receipts: 90 days
      - Tern analytics events: 13 months
      """,
    )
    n.day("11-10")
    n(PM, "Beacon pods", "Beacon runs 6 pods in prod and 2 in staging; staging only texts the team's test numbers.")
    n.day("11-12")
    n(PM, "Interviews 25 of 30", "Front-desk study: 25 of 30 interviews done by 12 Nov.")
    n.day("11-19")
    n(PM, "Interviews done", "Last of the 30 front-desk interviews done on 19 Nov; the synthesis is due 4 Dec.")
    n.day("11-20")
    n(PM, "Research spend", "2026 research spend to 20 Nov: CAD 11,400 of the 18,000 budget.")
    n.day("11-24")
    n(
        PM,
        "Synthesis themes",
        """
      Front-desk study, first themes:
      1. Staff phone unconfirmed patients the day before, 20-60 calls a day
      2. Free-text replies need a home in the clinic's inbox
      3. Physio clinics prefer the 24-hour reminder; family practices the 48-hour one
      4. Nobody wants a third reminder
      """,
        cat="insight",
    )
    n.day("11-26")
    n(PM, "Tern coverage", "About 700 of Beacon's 1,100 clinics have Tern turned on for their patients.")
    n.day("11-27")
    n(
        PM,
        "Beacon clinic settings",
        "Among Beacon clinics, about 300 use the 24-hour first reminder and the rest the 48-hour default.",
    )
    n.day("11-30")
    n(PM, "Tern crash-free November", "Tern crash-free sessions in November, to the 30th: 99.6%.")


def b_life_extra(n: Writer) -> None:
    """Persona b: family, home, running and preferences (assistant, calendar, coach)."""
    n.day("09-01")
    n(HELPER, "Hannah's birthday", "Hannah's birthday is 14 April.", source="user_stated")
    n.day("09-02")
    n(HELPER, "Marcus's day", "Marcus's school day runs 08:45-15:15; he is at school by 08:00.")
    n.day("09-04")
    n(
        HELPER,
        "Seats",
        "Hannah prefers a window seat; Marcus prefers the aisle.",
        cat="preference",
        source="user_stated",
    )
    n.day("09-05")
    n(HELPER, "Allergies", "Marcus is allergic to shellfish. Hannah has no food allergies.", source="user_stated")
    n(
        HELPER,
        "Ivy and milk",
        "Ivy is lactose intolerant and drinks oat milk. She has no allergies.",
        source="user_stated",
    )
    n.day("09-06")
    n(HELPER, "Home", "Hannah and Marcus own a semi-detached house on Curzon Street in Leslieville.")
    n.day("09-07")
    n(HELPER, "Mortgage", "Mortgage with TD: fixed at 4.49% until July 2029, $2,950 a month.")
    n.day("09-08")
    n(HELPER, "Property tax", "Property tax is about $4,800 a year, paid in six instalments of $800.")
    n.day("09-09")
    n(HELPER, "Internet", "Home internet is TekSavvy, 1 Gbps fibre.")
    n.day("09-10")
    n(
        HELPER,
        "Groceries",
        "Groceries: Saturday afternoons at the Loblaws on Carlaw, plus the Withrow Park farmers' market on Saturday "
        "mornings until the end of October.",
    )
    n.day("09-11")
    n(HELPER, "Daycare cost", "Little Maples costs about $480 a month for Ivy after the provincial fee reduction.")
    n.day("09-12")
    n(HELPER, "Pepper's daily food", "Pepper's wet food comes to 170 g a day.")
    n.day("09-13")
    n(COACH, "Heart rate", "Hannah's zone 2 is 135-150 bpm; her maximum heart rate tested at 188.")
    n.day("09-14")
    n(COACH, "Goal pace in miles", "Goal pace for the half, 5:27 per km, is about 8:46 per mile.")
    n.day("09-15")
    n(COACH, "Half marathon distance", "A half marathon is 21.1 km, or 13.1 miles.")
    n.day("09-16")
    n(HELPER, "Marcus cycles", "Marcus doesn't run; he cycles to school year-round, about 5 km each way.")
    n.day("09-17")
    n(
        COACH,
        "Strength",
        "Strength work: 20 minutes of core and glutes at home on Mondays and Fridays, the non-running days.",
    )
    n.day("09-18")
    n(HELPER, "Ivy's bedtime", "Ivy's bedtime is 19:30 Sunday to Thursday and 20:00 on Fridays and Saturdays.")
    n.day("09-19")
    n(
        HELPER,
        "Ivy's naps",
        "Ivy naps about 90 minutes after lunch at daycare; at home at weekends, about an hour and a half too.",
    )
    n.day("09-20")
    n(HELPER, "Nephews' birthdays", "Elena's boys: Leo's birthday is 2 March, Mateo's is 19 November.")
    n.day("09-21")
    n(COACH, "Week of 7-13 Sep", "Week of 7-13 Sep: 40 km in four runs.")
    n(COACH, "Week of 14-20 Sep", "Week of 14-20 Sep: 39 km in four runs.")
    n.day("09-24")
    n(HELPER, "Robotics club", "Marcus runs Eastdale's robotics club on Thursdays after school, until 17:00.")
    n.day("09-26")
    n(
        HELPER,
        "Hannah's reading",
        "Hannah is reading Continuous Discovery Habits for work and a Tana French novel for herself.",
    )
    n.day("09-27")
    n(COACH, "10k best", "Hannah ran a 10 km race in Toronto in October 2025 in 51:20.")
    n.day("10-03")
    n(
        HELPER,
        "Apple picking",
        "Apple picking at Chudleigh's on Sat 3 Oct afternoon with Elena's family; Ivy picked about ten apples.",
    )
    n.day("10-05")
    n(COACH, "Week of 28 Sep-4 Oct", "Week of 28 Sep-4 Oct: 38 km in four runs.")
    n.day("10-07")
    n(COACH, "Gels", "Race nutrition: Maurten gels, 40 g of carbohydrate each, one every 40 minutes.")
    n.day("10-12")
    n(COACH, "Week of 5-11 Oct", "Week of 5-11 Oct: 27 km in three runs (no Saturday run on the travel day).")
    n.day("10-16")
    n(HELPER, "Dad's health", "Samuel has type 2 diabetes, well controlled; he walks about 5 km most mornings.")
    n.day("10-17")
    n(COACH, "Shoe mileage", "The Ghost 16s have about 520 km on them; Hannah replaces easy-run shoes at about 700 km.")
    n.day("10-24")
    n(
        HELPER,
        "Flu shots",
        "Hannah, Marcus and Ivy got their flu shots on Sat 24 Oct at 14:00, at the pharmacy on Queen East.",
    )
    n.day("10-26")
    n(
        HELPER,
        "Ivy's friend Amara",
        "Ivy's best friend at daycare is Amara (mum: Funmi). Amara's birthday party is Sat 14 Nov at 15:00, at the play "
        "café on Gerrard.",
    )
    n.day("11-04")
    n(HELPER, "Vancouver weather", "Vancouver, 4 Nov: rain all day, 11 °C.")
    n.day("11-09")
    n(
        HELPER,
        "Parent-teacher interviews",
        "Marcus has parent-teacher interviews on the evening of Thu 19 Nov; Hannah picks Ivy up at 17:15 as on every "
        "Thursday.",
    )
    n.day("11-10")
    n(HELPER, "Winter boots", "Bought Ivy's winter boots on 10 Nov: toddler size 10.")
    n.day("11-14")
    n(HELPER, "Amara's party", "Ivy went to Amara's party at the play café on 14 Nov; Marcus took her.")
    n.day("11-18")
    n(HELPER, "Christmas ideas for Ivy", "Christmas ideas for Ivy: a wooden play kitchen and picture books in French.")
    n.day("11-20")
    n(HELPER, "Chioma's present", "For Chioma's birthday on 5 Dec: a ceramics class voucher, posted on 20 Nov.")
    n.day("11-21")
    n(
        HELPER,
        "Mateo's party",
        "Mateo's sixth birthday party at Elena's in Scarborough, 21 Nov afternoon; gave him a Lego fire truck.",
    )
    n.day("11-25")
    n(HELPER, "Utility bills", "October utilities: Toronto Hydro $96, Enbridge gas $71.")
    n.day("11-27")
    n(HELPER, "Santa Shuffle", "Santa Shuffle, Sat 5 Dec: registered Hannah ($45) and Ivy's elf-run ($15).")


def b_more(n: Writer) -> None:
    """Persona b: more of the same sessions: triage, store reviews, monthly totals, household rhythm."""
    n.day("09-01")
    n(HELPER, "Mornings", "Hannah gets up at 06:15 on weekdays; at weekends Ivy wakes everyone around 07:00.")
    n(
        PM,
        "Who owns what",
        "Who owns what: Beacon (Hannah PM, Kofi backend), Tern (Hannah PM, Matteo mobile), Relay (Lucía Torres, "
        "platform), Juniper (Noah Fischer PM).",
    )
    n.day("09-03")
    n(
        HELPER,
        "Daycare closures",
        "Little Maples is closed on statutory holidays, so Labour Day (7 Sep) and Thanksgiving (12 Oct) are home days "
        "for Ivy.",
    )
    n.day("09-04")
    n(
        PM,
        "Support hours",
        "Beacon support hours for clinics: 08:00-20:00 Eastern on weekdays, 09:00-17:00 on Saturdays, closed on "
        "Sundays.",
    )
    n.day("09-06")
    n(HELPER, "Calls with Dad", "Hannah calls her dad every Sunday at 19:00.")
    n.day("09-08")
    n(
        PM,
        "Triage 8 Sep",
        "Triage, 8 Sep: BCN-1412, a reminder sent for an appointment cancelled less than 2 hours before; a race "
        "between the cancellation webhook and the send job. Fix goes in 3.13.",
        ref="jira:BCN-1412",
    )
    n.day("09-09")
    n(
        HELPER,
        "Bins",
        "Garbage day on Curzon Street is Thursday: the green bin every week, and the blue recycling bin and the "
        "garbage bin on alternate weeks.",
    )
    n.day("09-12")
    n(HELPER, "Ivy's teacher", "Ivy's room teacher at Little Maples is Priya (no relation to Priya Shah at work).")
    n.day("09-13")
    n(
        HELPER,
        "Dad on Sunday",
        "Sunday call with Dad, 13 Sep: he's walking most mornings and planning Thanksgiving for the four of us.",
        at="19:40",
    )
    n.day("09-16")
    n(PM, "Tern 5.4 review time", "Tern 5.4 took 26 hours in App Store review.")
    n.day("09-17")
    n(
        PM,
        "Send delay",
        "Beacon's p95 send delay (from scheduled time to Relay handing off to Twilio) was 40 seconds in the first "
        "half of September.",
    )
    n.day("09-18")
    n(
        PM,
        "Tern team budget",
        "Each Tern engineer has a $1,000 conference budget; Tern's six engineers have $6,000 between them for 2026.",
    )
    n.day("09-22")
    n(
        PM,
        "BCN-1412 fixed",
        "Beacon 3.13 also carries the fix for BCN-1412 (reminder after a late cancellation).",
        ref="jira:BCN-1412",
    )
    n.day("09-25")
    n(HELPER, "Household budget", "Household budget: groceries about $1,100 a month; eating out about $250.")
    n.day("09-30")
    n(COACH, "September running", "September running: 15 runs, 149 km.")
    n(
        PM,
        "Tern team size",
        "The Tern team is six engineers plus Matteo as lead; Yuki Tanaka does QA for both Tern and Beacon.",
    )
    n.day("10-02")
    n(PM, "SMS spend by year", "Beacon SMS spend: CAD 58,000 in 2025; 2026 projected at about CAD 64,000.")
    n.day("10-04")
    n(
        HELPER,
        "Dad's call 4 Oct",
        "Sunday call with Dad, 4 Oct: he's roasting the turkey; we bring the pie.",
        at="19:40",
    )
    n.day("10-06")
    n(PM, "3.14 deploy", "Beacon 3.14's deploy took 12 minutes, no rollback.")
    n.day("10-09")
    n(
        HELPER,
        "Annual physical",
        "Hannah's annual physical with Dr. Osei on Fri 9 Oct at 08:30: all normal, bloods in range.",
    )
    n(
        HELPER,
        "PA day",
        "Fri 9 Oct is a PA day at Marcus's school: no classes, but teachers work; Little Maples is open as usual.",
    )
    n.day("10-13")
    n(PM, "Tern 5.5 review time", "Tern 5.5 took 19 hours in App Store review.")
    n.day("10-14")
    n(
        PM,
        "TRN-877",
        'TRN-877: VoiceOver reads appointment dates as bare numbers ("10 14"). Planned for Tern 5.6.',
        ref="jira:TRN-877",
    )
    n.day("10-19")
    n(
        PM,
        "Pilot support",
        "For the pilot Beacon support keeps its usual hours; Kofi's on-call engineer covers reply-parsing issues out "
        "of hours.",
    )
    n.day("10-20")
    n(
        PM,
        "Sprint 20 Oct",
        "Beacon sprint starting 20 Oct: reply deduplication (3.16), the GA plan's numbers, and BCN-1460 (French "
        "accents in SMS counted as two characters).",
        ref="jira:BCN-1460",
    )
    n.day("10-25")
    n(COACH, "Week of 19-25 Oct", "Week of 19-25 Oct: 21 km in three easy runs, recovery.")
    n(HELPER, "Dad's call 25 Oct", "Sunday call with Dad, 25 Oct: he liked the canal book.")
    n.day("10-28")
    n(HELPER, "Dana's office days", "Dana is in the Toronto office on Tuesdays and Wednesdays.")
    n.day("10-29")
    n(HELPER, "Dev", "Chioma's partner Dev is a software engineer at a game studio in Vancouver.")
    n.day("10-31")
    n(COACH, "October running", "October running: 16 runs, about 135 km, the half marathon included.")
    n.day("11-02")
    n(
        PM,
        "BCN-1460",
        "BCN-1460's fix goes out in Beacon 3.16 tomorrow: French accents will no longer push a reminder into two SMS "
        "segments.",
        ref="jira:BCN-1460",
    )
    n.day("11-03")
    n(HELPER, "Vacation", "Hannah is off from 21 Dec to 1 Jan.")
    n.day("11-05")
    n(
        PM,
        "Tern push",
        "Tern doesn't send texts: it sends push notifications for appointment changes. Texts come from Beacon.",
    )
    n.day("11-08")
    n(
        HELPER,
        "Dad's call 8 Nov",
        "Sunday call with Dad, 8 Nov: told him about Vancouver; he's booked his Christmas train for 24 Dec.",
        at="19:40",
    )
    n.day("11-09")
    n(PM, "Check-in window", "Tern lets patients check in from 30 minutes before their appointment.")
    n.day("11-10")
    n(PM, "Tern 5.6 review time", "Tern 5.6 took 31 hours in App Store review; Android rollout reached 100% on 16 Nov.")
    n(PM, "TRN-877 fixed", 'TRN-877 fixed in Tern 5.6: dates are read as "Wednesday, October 14".', ref="jira:TRN-877")
    n.day("11-15")
    n(HELPER, "Garbage day", "Put the blue bin and the green bin out on Wed 18 Nov evening for Thursday's pickup.")
    n.day("11-16")
    n(
        COACH,
        "Resting heart rate",
        "Resting heart rate averaged 52 bpm in September and 50 bpm in the first half of November.",
    )
    n.day("11-18")
    n(PM, "Send delay November", "Beacon's p95 send delay in the first half of November: 35 seconds.")
    n.day("11-20")
    n(
        HELPER,
        "PA day 20 Nov",
        "Fri 20 Nov is another PA day at Eastdale; Marcus is at school for training, and Ivy goes to daycare as usual.",
    )
    n.day("11-22")
    n(
        HELPER,
        "Dad's call 22 Nov",
        "Sunday call with Dad, 22 Nov (after Rosa's dinner): Christmas menu; he wants jollof rice on Boxing Day.",
        at="19:40",
    )
    n.day("11-23")
    n(PM, "APM shortlist", "APM shortlist: two candidates for the final round on 2-3 Dec.")
    n.day("11-24")
    n(
        CAL,
        "Vet reminder",
        "Pepper's check-up today, 24 Nov, 17:45 at Leslieville Animal Clinic; carrier is in the basement.",
        at="08:10",
    )
    n.day("11-26")
    n(
        HELPER,
        "Christmas arrivals",
        "Christmas arrivals: Chioma and Dev land at Pearson on 23 Dec at 18:10; Dad's train reaches Union at 16:30 on "
        "24 Dec.",
    )
    n.day("11-28")
    n(HELPER, "Tree", "Bought the Christmas tree at the Withrow Park lot on 28 Nov; Ivy chose it.")
    n.day("11-29")
    n(HELPER, "Dad's call 29 Nov", "Sunday call with Dad, 29 Nov: his check-up went well.", at="19:40")


def b_restated(n: Writer) -> None:
    """Persona b: things said again later, in other words, other units or other time zones, and a few more people."""
    n.day("09-21")
    n(HELPER, "Garden plot fee 2026", "Greenwood Community Garden plot fees were $35 for 2026.")
    n.day("10-10")
    n(PM, "Reminders per month", "Beacon sends roughly 520,000 reminders a month.")
    n.day("10-20")
    n(CAL, "Office days restated", "Hannah's office days are Tuesday and Thursday.")
    n.day("10-21")
    n(PM, "Relay per minute", "At 30 texts a second, a Relay sender number can send 1,800 texts a minute.")
    n.day("10-22")
    n(
        COACH,
        "Half marathons",
        """
      Hannah's half marathons:
      - Mississauga, May 2024: 1:58:40
      - Lakeshore, 18 Oct 2026: 1:54:12
      """,
    )
    n(
        COACH,
        "Long runs this block",
        "Longest training run of the autumn block: 21 km on 27 Sep. Tempo runs were at 5:10-5:15 per km.",
    )
    n.day("10-27")
    n(PM, "Panel time", "The ClinicTech panel on 4 Nov at 14:00 Pacific is 17:00 in Toronto.")
    n(HELPER, "Time difference", "Vancouver is three hours behind Toronto.")
    n.day("10-29")
    n(
        HELPER,
        "Flight times",
        "AC 113 on 3 Nov leaves Toronto at 08:00 Eastern and lands at 10:05 Pacific, about 5 hours in the air.",
    )
    n.day("11-03")
    n(CAL, "Raj 1:1 restated", "Hannah and Raj meet one to one every Monday at 1 pm, holidays aside.")
    n.day("11-06")
    n(
        HELPER,
        "Return flight time",
        "Coming home on 6 Nov: AC 120 left Vancouver at 16:00 Toronto time and landed at 20:40, a 4 h 40 min flight.",
    )
    n.day("11-08")
    n(HELPER, "Pepper's pouches", "Pepper's wet food: two 85 g pouches a day, morning and evening.")
    n.day("11-09")
    n(
        PM,
        "Two-reminder default",
        "For the GA plan: Beacon's default stays two reminders per appointment, 48 hours and 2 hours ahead; two-way "
        "replies work on either.",
    )
    n.day("11-12")
    n(
        PM,
        "Juniper and patients",
        "Juniper shows clinics counts and rates only, never patient names; Beacon's support console shows a patient's "
        "phone number to support staff.",
    )
    n.day("11-17")
    n(PM, "Kofi's birthday", "Kofi's birthday is 2 February.")
    n.day("11-19")
    n(COACH, "Race time in minutes", "The 18 Oct half took 114 minutes and 12 seconds.")
    n.day("11-23")
    n(HELPER, "Gymnastics term", "Ivy's gymnastics term ends Sat 12 Dec; the winter term starts 9 Jan.")
    n.day("11-24")
    n(PM, "Matteo's birthday", "Matteo's birthday is 28 November; the Tern team is having cake on Fri 27 Nov.")
    n.day("11-27")
    n(PM, "Matteo's cake", "Cake for Matteo's birthday with the Tern team on 27 Nov; Hannah joined on video.")
    n.day("11-28")
    n(
        HELPER,
        "Dad's Christmas",
        "Dad stays with us 24-28 Dec; the spare room needs the air mattress for Chioma and Dev.",
    )
    n.day("11-30")
    n(
        CAL,
        "Week ahead (30 Nov-6 Dec)",
        """
      Week ahead, 30 Nov-6 Dec:
      - Mon 30: 1:1 with Raj 13:00
      - Tue 1 Dec: office; Beacon sprint review
      - Wed 2 Dec: APM final interview 1
      - Thu 3 Dec: office; APM final interview 2; pickup 17:15
      - Fri 4 Dec: GA plan and study synthesis due
      - Sat 5 Dec: Santa Shuffle
      """,
    )


PERSONA_A: list[Callable[[Writer], None]] = [a_september, a_october, a_november, a_work_extra, a_life_extra, a_more]
PERSONA_B: list[Callable[[Writer], None]] = [
    b_september,
    b_october,
    b_november,
    b_work_extra,
    b_life_extra,
    b_more,
    b_restated,
]


def check(notes: list[dict]) -> None:
    """What the file promises: unique ids and texts, every field, `at` in range and non-decreasing per persona."""
    ids = [x["id"] for x in notes]
    if len(set(ids)) != len(ids):
        raise ValueError("duplicate ids")
    texts = [" ".join(x["text"].split()) for x in notes]
    if len(set(texts)) != len(texts):
        dup = sorted({t for t in texts if texts.count(t) > 1})
        raise ValueError(f"duplicate texts: {dup[:3]}")
    for persona in PERSONAS:
        ats = [datetime.fromisoformat(x["at"]) for x in notes if x["persona"] == persona]
        if any(b < a for a, b in zip(ats, ats[1:], strict=False)):
            raise ValueError(f"persona {persona}: `at` decreases")
        if not (ats[0].strftime("%m-%d") >= FIRST_DAY and ats[-1].strftime("%m-%d") <= LAST_DAY):
            raise ValueError(f"persona {persona}: `at` out of range")
    for x in notes:
        if not (x["title"] and x["text"] and x["agent"].startswith("agent:")):
            raise ValueError(f"{x['id']}: title, text and agent are required")


def render(notes: list[dict]) -> str:
    return "".join(json.dumps(x, ensure_ascii=False, sort_keys=False) + "\n" for x in notes)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    out = Path(argv[0]) if argv else OUT
    notes = build()
    check(notes)
    out.write_text(render(notes), encoding="utf-8")
    for persona, half in PERSONAS.items():
        mine = [x for x in notes if x["persona"] == persona]
        agents = sorted({x["agent"] for x in mine})
        print(
            f"persona {persona} ({half}): {len(mine)} notes, {mine[0]['at']} .. {mine[-1]['at']}, {', '.join(agents)}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
