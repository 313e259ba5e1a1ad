"""JSON Schemas (2020-12), shipped as package data and loaded through importlib.resources."""
