"""How the workflow packs datasets into jobs (threshold_choice.reproduction.jobs)."""

from __future__ import annotations

import pytest

from threshold_choice.errors import UserError
from threshold_choice.reproduction.jobs import dataset_jobs

SIZES = {"a": 10, "b": 500, "c": 20, "d": 30, "e": 900, "f": 40, "g": 50}


def test_large_datasets_get_a_job_each_and_small_ones_share_jobs_in_config_order():
    jobs = dataset_jobs(list(SIZES), SIZES, small_below=100, per_job=2)
    assert jobs == [("a", "c"), ("b",), ("d", "f"), ("e",), ("g",)]


def test_every_dataset_is_in_exactly_one_job():
    names = [f"d{i}" for i in range(23)]
    sizes = {n: (i * 37) % 100 for i, n in enumerate(names)}
    jobs = dataset_jobs(names, sizes, small_below=60, per_job=4)
    flat = [d for job in jobs for d in job]
    assert sorted(flat) == sorted(names)
    assert all(len(job) <= 4 for job in jobs)
    assert all(len(job) == 1 for job in jobs if any(sizes[d] >= 60 for d in job))


def test_small_dataset_cells_zero_gives_one_job_per_dataset():
    assert dataset_jobs(list(SIZES), SIZES, small_below=0, per_job=8) == [(d,) for d in SIZES]


def test_datasets_per_job_one_gives_one_job_per_dataset():
    assert dataset_jobs(list(SIZES), SIZES, small_below=100, per_job=1) == [(d,) for d in SIZES]


def test_a_dataset_added_at_the_end_changes_the_last_job_only():
    before = dataset_jobs(list(SIZES), SIZES, small_below=100, per_job=3)
    after = dataset_jobs([*SIZES, "h"], {**SIZES, "h": 5}, small_below=100, per_job=3)
    assert before[-1] == ("f", "g")
    assert after == [*before[:-1], ("f", "g", "h")]


def test_unknown_size_counts_as_small():
    assert dataset_jobs(["x", "y"], {}, small_below=100, per_job=8) == [("x", "y")]


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"small_below": 100, "per_job": 0}, "datasets_per_job"),
    ({"small_below": 100, "per_job": True}, "datasets_per_job"),
    ({"small_below": -1, "per_job": 2}, "small_dataset_cells"),
])
def test_bad_settings_are_refused_naming_the_setting(kwargs, message):
    with pytest.raises(UserError, match=message):
        dataset_jobs(list(SIZES), SIZES, **kwargs)


def test_a_dataset_listed_twice_is_refused():
    with pytest.raises(UserError, match="once"):
        dataset_jobs(["a", "a"], SIZES, small_below=100, per_job=2)
