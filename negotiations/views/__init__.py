"""Views of the record, one module per area; each view parses, calls one selector or service, renders."""
