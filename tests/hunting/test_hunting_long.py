"""Long hunting runs (marker ``hunt_long``, ``make hunt``): a 2-minute campaign on two workers."""
import pytest

pytestmark = pytest.mark.hunt_long


def test_two_minute_campaign_covers_every_hunted_bound(tmp_path):
    from olr_verify.hunting import campaign

    claims = campaign.select_claims(None)
    campaign.run_campaign(claims, 120, workers=2, db=tmp_path / "c.sqlite", unit_seconds=5, progress=False)
    rows = {r["claim"]: r for r in campaign.summary(tmp_path / "c.sqlite")}
    assert set(claims) <= set(rows)
    assert rows["002:theorem-4.5"]["status"] == "refuted"


def test_two_workers_give_at_least_1_8_times_the_throughput_of_one():
    from olr_verify.hunting import campaign

    tp = campaign.throughput(["000:theorem-1", "002:theorem-4.5"], 40, unit_seconds=5)
    assert tp["speedup"] >= 1.8
