"""Markdown -> sanitised HTML, shared by e-mails and the web log."""

from .markdown import markdown_to_html

__all__ = ["markdown_to_html"]
