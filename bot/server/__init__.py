"""The composition root and operations: `python -m bot`, the application's assembly,
settings, the webhook and web server, metrics, leadership and logs. Nothing imports it."""
