/**
 * A small ClickHouse expression language: the SQL of DEFAULT expressions, sorting, partition and
 * sharding keys as the server prints them, and of a pipeline's computed columns and filters ({@link
 * dev.sluice.clickhouse.expr.ExprParser}), and a columnar evaluator that computes them over the
 * rows of a block with the server's types and values ({@link
 * dev.sluice.clickhouse.expr.CompiledExpression}). A function is either reproduced exactly —
 * checked value by value against a server, see {@code docs/defaults.md} — or refused with {@link
 * dev.sluice.clickhouse.expr.UnsupportedExpressionException}, so callers can fall back to letting
 * the server compute it.
 */
package dev.sluice.clickhouse.expr;
