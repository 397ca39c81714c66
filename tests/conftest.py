import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))


def pytest_configure(config):
    """`slow`: re-executes notebooks (minutes); `-m "not slow"` leaves them out."""
    config.addinivalue_line("markers", "slow: re-executes notebooks; takes minutes (deselect with -m 'not slow')")
