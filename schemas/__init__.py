"""JSON Schemas (2020-12), shipped as package data and read from this folder (pbem.store.packaged)."""
