"""The schema check: objects against the JSON Schemas in ``schemas/`` (what ``validate`` runs, and lint and compile too)."""
