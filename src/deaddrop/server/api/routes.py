"""API endpoints that are not about a game: the health check."""

from __future__ import annotations

from litestar import Router, get
from litestar.exceptions import HTTPException
from sqlalchemy import text

from deaddrop.server.db.dependencies import DB


@get("/health", name="health", skip_session=True)
async def health(db: DB) -> dict[str, str]:
    """`ok` when the app is up and its database answers; 503 otherwise (for load balancers)."""
    try:
        await db.execute(text("SELECT 1"))
    except Exception as error:
        raise HTTPException(status_code=503, detail="The database does not answer.") from error
    return {"status": "ok"}


router = Router(path="/api", route_handlers=[health])
