"""Server-rendered pages (templates, plain CSS)."""
