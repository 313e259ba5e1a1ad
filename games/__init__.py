"""The games pbem referees: one self-contained package each (see pbem.contract)."""
