"""The read-only JSON API (contract: shared design API.md), assembled from each app's router."""

from ninja import NinjaAPI

api = NinjaAPI(
    title="FPT Negotiations Tracker API",
    version="1.0.0",
    description="Read-only access to the negotiation record and the fiscal effect of every offer.",
    urls_namespace="api",
)
