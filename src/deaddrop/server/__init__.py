"""The Dead Drop web app: Litestar on uvicorn around the rules engines."""
