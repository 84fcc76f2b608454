"""`Engine.zone_listing`: what a trust zone may list (a limited MCP server's hot.md and index.md), read from the
index's columns, is exactly what `zone_allows` admits among the active, unexpired records."""

from __future__ import annotations

import itertools
from datetime import timedelta

from memkeeper.core import Engine
from memkeeper.core.models import SensitivityTier, TrustZone
from memkeeper.core.scoring import zone_allows
from tests.conftest import T0

SUBJECTS = ["kettle", "ferry", "orchard", "lantern", "glacier", "quarry", "meadow", "harbour", "canyon", "violin"]


def test_the_listing_is_the_active_unexpired_records_the_zone_may_see(tmp_path):
    eng = Engine.init(tmp_path / "w", now=T0)
    try:
        made = {}
        combos = list(itertools.product(TrustZone, SensitivityTier))
        for i, (zone, tier) in enumerate(combos):
            noun = SUBJECTS[i % len(SUBJECTS)]
            r = eng.capture(
                f"The {noun} inventory number {i} is kept in drawer {i * 7}.",
                now=T0,
                title=f"{noun} {i}",
                zone=zone,
                sensitivity=tier,
            )
            assert r.status == "captured", r.details
            made[r.details["memory_id"]] = (zone, tier)
        soon = eng.capture("The ferry timetable for the winter holds until Sunday.", now=T0, ttl_days=2)
        denied = eng.capture("The orchard gate code changes every spring.", now=T0)
        assert eng.deny(denied.details["memory_id"], now=T0, actor="human:me").ok

        later = T0 + timedelta(days=3)  # the ferry timetable has expired by then
        for zone in TrustZone:
            listed = eng.zone_listing(zone, later)
            want = {m for m, (z, t) in made.items() if zone_allows(zone, z, t)}
            assert {x.memory_id for x in listed} == want, zone
            for x in listed:
                assert x.path == eng.page_of(x.memory_id)
                assert x.title == eng.get(x.memory_id).title
        assert soon.details["memory_id"] in {x.memory_id for x in eng.zone_listing(TrustZone.private_self, T0)}
        assert denied.details["memory_id"] not in {x.memory_id for x in eng.zone_listing(TrustZone.private_self, T0)}
    finally:
        eng.close()
