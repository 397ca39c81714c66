"""The paper's analyses (and the compendium's additions), each a function of a loaded corpus."""
