from typing import Any

from django.apps import AppConfig
from django.contrib.admin.options import BaseModelAdmin
from django.forms.models import BaseModelForm


def _itself(cls: type, *arguments: object) -> type:
    return cls


# The admin's and the forms' classes are generic in django-stubs only: subclassed with their
# type arguments (``ModelAdmin[Club]``), each is, at run time, the class itself (what
# ``django_stubs_ext.monkeypatch()`` does, without that package at run time).
_GENERIC_IN_STUBS: tuple[type[Any], ...] = (BaseModelAdmin, BaseModelForm)
for _generic in _GENERIC_IN_STUBS:
    if "__class_getitem__" not in vars(_generic):
        _generic.__class_getitem__ = classmethod(_itself)


class ClubsConfig(AppConfig):
    name = "clubs"
