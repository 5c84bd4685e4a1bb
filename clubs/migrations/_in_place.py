"""Schema operations that change a table in place on SQLite.

Django adds a NOT NULL column, or an index to a column, on SQLite by remaking the table (a new
table, the rows copied, the old one dropped): that fails on a table another table's trigger
reads (``session_in_season`` reads ``clubs_season``) and would drop the table's own triggers
(the rules of ``clubs`` 0002 and 0003, ``matches`` 0002). These do it with ``ALTER TABLE ADD
COLUMN`` and ``CREATE INDEX`` instead; other databases run Django's own operation. The
migration sets the new column's values for the existing rows itself.
"""

from django.db import migrations


def _index(schema_editor, model, field) -> None:
    if field.db_index:
        schema_editor.execute(schema_editor._create_index_sql(model, fields=[field]))


def _drop_indexes(schema_editor, model, field) -> None:
    if field.db_index:  # the name _index gave it (Django's for a field's index)
        name = schema_editor._create_index_name(model._meta.db_table, [field.column], suffix="")
        schema_editor.execute(f"DROP INDEX IF EXISTS {schema_editor.quote_name(name)}")


class AddFieldInPlace(migrations.AddField):
    """``AddField`` of a NOT NULL date-time column; on SQLite the existing rows get a
    placeholder (1970) until the migration sets them."""

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor != "sqlite":
            return super().database_forwards(app_label, schema_editor, from_state, to_state)
        model = to_state.apps.get_model(app_label, self.model_name)
        field = model._meta.get_field(self.name)
        schema_editor.execute(
            "ALTER TABLE {} ADD COLUMN {} {} NOT NULL DEFAULT '1970-01-01 00:00:00'".format(
                schema_editor.quote_name(model._meta.db_table),
                schema_editor.quote_name(field.column),
                field.db_type(schema_editor.connection),
            )
        )
        _index(schema_editor, model, field)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor != "sqlite":
            return super().database_backwards(app_label, schema_editor, from_state, to_state)
        model = from_state.apps.get_model(app_label, self.model_name)
        field = model._meta.get_field(self.name)
        _drop_indexes(schema_editor, model, field)
        schema_editor.execute(
            "ALTER TABLE {} DROP COLUMN {}".format(
                schema_editor.quote_name(model._meta.db_table),
                schema_editor.quote_name(field.column),
            )
        )


class AddIndexInPlace(migrations.AlterField):
    """``AlterField`` that only adds ``db_index`` to an existing column."""

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor != "sqlite":
            return super().database_forwards(app_label, schema_editor, from_state, to_state)
        model = to_state.apps.get_model(app_label, self.model_name)
        _index(schema_editor, model, model._meta.get_field(self.name))

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor != "sqlite":
            return super().database_backwards(app_label, schema_editor, from_state, to_state)
        model = from_state.apps.get_model(app_label, self.model_name)
        _drop_indexes(schema_editor, model, model._meta.get_field(self.name))
