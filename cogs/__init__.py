"""discord.py cogs: thin adapters from interactions to the store, the table service and renders.

Every module is an extension (`async def setup(bot)`) listed in `bot.client.EXTENSIONS`.
Conventions (see `bot.discord_utils`):
- user-facing text comes from the catalogues: `t(key, lang)` with `lang = await lang_for(i)`;
  command descriptions are `cmd_str("commands.x.description")` (translated by the tree's
  `StoppaTranslator`);
- refuse with `raise UserFacingError("area.key", **params)`: the tree answers it ephemerally;
  any other exception is logged with its ids and answered politely by `StoppaTree.on_error`;
- manager commands live in a group with `default_permissions(manage_guild=True)` and check
  `is_manager(interaction)` in code as well;
- a cog may declare persistent components: `dynamic_items = (MyDynamicItem, ...)` and/or
  `def persistent_views(self) -> list[tuple[discord.ui.View, int | None]]`; the bot registers
  them in `setup_hook` after loading every cog.
"""
