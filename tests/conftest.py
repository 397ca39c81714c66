import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import pytest  # noqa: E402  (after the path line, which lets tests import their helpers)
import toy as toy_corpus  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402

from hotelcheckspan import cli as hcs_cli  # noqa: E402
from hotelcheckspan import corpora, paths  # noqa: E402

# Property tests draw 100 cases each while editing; `make test` draws 300 (--hypothesis-profile
# thorough). No deadline: the references they are checked against take milliseconds per case.
for name, cases in (("quick", 100), ("thorough", 300)):
    settings.register_profile(name, max_examples=cases, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("quick")


@pytest.fixture(scope="session")
def corpus():
    """The bundled corpus, loaded once per session. Read-only: a test that needs a variant
    builds one with ``dataclasses.replace(corpus, spans=...)`` instead of changing it in place."""
    return corpora.load()


@pytest.fixture(scope="session")
def toy_root(tmp_path_factory):
    """The folder of the toy corpus of ``tests/toy.py`` (factgenie layout), written once."""
    return toy_corpus.write(tmp_path_factory.mktemp("toy"))


@pytest.fixture(scope="session")
def toy(toy_root):
    """The toy corpus of ``tests/toy.py``, loaded once. Read-only, like ``corpus``."""
    return corpora.load(toy_root)


@pytest.fixture(scope="session")
def iaa():
    """The bundled real d2t iaa split, loaded once. Read-only, like ``corpus``."""
    return corpora.load(paths.REAL_CORPUS)


@pytest.fixture(scope="session")
def iaa_validation(iaa):
    """Its metric validation, small (100 resamples, 50 permutations, 20 random draws): every
    statistic, the ceiling, its texts and the clusters, for tests that read their shape."""
    from hotelcheckspan.analyses import metric_validation

    return metric_validation.evaluate(iaa, n_boot=100, n_permutations=50, n_random=20)


def pytest_configure(config):
    """`slow`: the checks that take minutes (notebooks re-executed, factgenie's own code swept over
    the real comparisons, tests/sweep.py); `-m "not slow"` leaves them out, `make test` runs them."""
    config.addinivalue_line(
        "markers", "slow: re-executes notebooks or sweeps factgenie over real pairs; takes minutes (-m 'not slow')"
    )


@pytest.fixture
def run(capsys):
    """``hotelcheckspan ARGS`` through ``cli.main``: ``(exit code, stdout, stderr)``."""

    def call(*args):
        capsys.readouterr()
        try:
            code = hcs_cli.main([str(a) for a in args])
        except SystemExit as done:
            code = done.code
        out = capsys.readouterr()
        return code, out.out, out.err

    return call
