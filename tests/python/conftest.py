"""Shared pytest setup: tests/python is importable (for helpers.py), and markers for the
optional frameworks."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
