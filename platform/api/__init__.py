"""The REST API (Django REST framework) and its OpenAPI schema."""
