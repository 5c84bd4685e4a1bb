"""The ladder's template library (``{% load ladder %}``): a line's cell in a column, written as
the column's ``shape`` says (``scoring.selectors.LADDER_COLUMNS``), for the page and the PDF."""

from django import template
from django.template.defaultfilters import floatformat

from matches.presenters import signed, signed_decimal
from scoring.models import Standing
from scoring.selectors import LadderColumn

register = template.Library()


@register.simple_tag
def ladder_cell(row: Standing, column: LadderColumn) -> object:
    """The value of ``row`` in ``column``: a rank marked ``*`` when not qualified, a net
    signed, an average signed with one decimal, a rating whole."""
    value = getattr(row, column.field)
    if column.shape == "rank":
        return f"{value}*" if not row.qualified else value
    if column.shape == "signed":
        return signed(value)
    if column.shape == "signed_decimal":
        return signed_decimal(value)
    if column.shape == "whole":
        return floatformat(value, 0)
    return value
