import sys
from pathlib import Path

# tests import the reference searches as `naive`, stumpy-style
sys.path.insert(0, str(Path(__file__).parent))
