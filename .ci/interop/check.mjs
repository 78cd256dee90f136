// check.mjs: reads arimaalab's Arrow shards with the npm apache-arrow reader
// (LZ4 frames through lz4js, registered in its compression registry) and the
// Parquet exports with DuckDB (@duckdb/node-api), and checks every value
// against expected.json, which the Go program data/internal/interopgen wrote
// from the same rows.
//
// Usage: node check.mjs DIR
//
// DIR holds expected.json, the shards under run/ and the exports under
// parquet/ ("analyze export -parquet DIR/parquet DIR/run"). Prints one line per
// file and "N passed, N failed" at the end; exits 1 on any failure.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tableFromIPC, compressionRegistry, CompressionType } from 'apache-arrow';
import lz4 from 'lz4js';
import { DuckDBInstance } from '@duckdb/node-api';

compressionRegistry.set(CompressionType.LZ4_FRAME, {
  encode: (data) => lz4.compress(data),
  decode: (data) => lz4.decompress(data),
});

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node check.mjs DIR');
  process.exit(2);
}
const expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8'));

let passed = 0;
let failed = 0;
function check(name, fn) {
  try {
    fn();
    passed++;
    console.log(`ok   ${name}`);
  } catch (err) {
    failed++;
    console.log(`FAIL ${name}: ${err.message}`);
  }
}

function eq(what, got, want) {
  if (got !== want) {
    throw new Error(`${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
  }
}

// compareRow compares a row read (plain values: 64-bit integers as strings,
// lists as arrays, policy entries as {move, visits}) with the expected one.
function compareRow(where, got, want) {
  eq(`${where} game_id`, got.game_id, want.game_id);
  for (const k of ['turn', 'side', 'move', 'root_value', 'visits', 'result', 'plies_left', 'termination', 'full_search']) {
    eq(`${where} ${k}`, got[k], want[k]);
  }
  eq(`${where} board length`, got.board.length, 12);
  want.board.forEach((b, i) => eq(`${where} board[${i}]`, got.board[i], b));
  eq(`${where} features length`, got.features.length, expected.featureNames.length);
  want.features.forEach((f, i) => eq(`${where} features[${i}]`, got.features[i], f));
  eq(`${where} policy length`, got.policy.length, want.policy.length);
  want.policy.forEach((p, i) => {
    eq(`${where} policy[${i}].move`, got.policy[i].move, p.move);
    eq(`${where} policy[${i}].visits`, got.policy[i].visits, p.visits);
  });
}

// Arrow IPC files, read with apache-arrow.
for (const shard of expected.shards) {
  check(`apache-arrow ${shard.arrow} (${shard.compression || 'lz4'})`, () => {
    const table = tableFromIPC(readFileSync(join(dir, shard.arrow)));
    eq('rows', table.numRows, shard.rows.length);
    eq('record batches', table.batches.length, shard.batches);
    const names = table.schema.fields.map((f) => f.name).join(',');
    eq('columns', names, 'game_id,turn,side,board,features,move,root_value,visits,policy,result,plies_left,termination,full_search');
    const md = table.schema.metadata;
    for (const [k, v] of Object.entries(shard.metadata)) {
      eq(`metadata ${k}`, md.get(k), v);
    }
    eq('feature names', md.get('arimaalab.feature_names'), expected.featureNames.join(','));
    eq('feature version', md.get('arimaalab.feature_version'), expected.featureVersion);
    const col = (name) => table.getChild(name);
    for (let i = 0; i < table.numRows; i++) {
      const got = {
        game_id: String(col('game_id').get(i)),
        turn: col('turn').get(i),
        side: col('side').get(i),
        board: Array.from(col('board').get(i).toArray(), String),
        features: Array.from(col('features').get(i).toArray()),
        move: col('move').get(i),
        root_value: col('root_value').get(i),
        visits: col('visits').get(i),
        policy: Array.from(col('policy').get(i) ?? [], (e) => ({ move: e.move, visits: e.visits })),
        result: col('result').get(i),
        plies_left: col('plies_left').get(i),
        termination: col('termination').get(i),
        full_search: col('full_search').get(i),
      };
      compareRow(`row ${i}`, got, shard.rows[i]);
    }
  });
}

// Parquet exports, read with DuckDB.
const wantTypes = {
  game_id: 'UBIGINT', turn: 'USMALLINT', side: 'UTINYINT', board: 'UBIGINT[]', features: 'FLOAT[]',
  move: 'VARCHAR', root_value: 'FLOAT', visits: 'UINTEGER', policy: 'STRUCT("move" VARCHAR, visits UINTEGER)[]',
  result: 'TINYINT', plies_left: 'USMALLINT', termination: 'VARCHAR', full_search: 'BOOLEAN',
};
const instance = await DuckDBInstance.create(':memory:');
const conn = await instance.connect();
for (const shard of expected.shards) {
  const path = join(dir, shard.parquet).replaceAll("'", "''");
  const scan = `read_parquet('${path}', file_row_number = true, hive_partitioning = false)`;
  let rows, types, kv;
  let readErr = null;
  try {
    types = (await conn.runAndReadAll(`DESCRIBE SELECT * EXCLUDE (file_row_number) FROM ${scan}`)).getRowObjectsJson();
    rows = (await conn.runAndReadAll(`SELECT * EXCLUDE (file_row_number) FROM ${scan} ORDER BY file_row_number`)).getRowObjectsJson();
    kv = (await conn.runAndReadAll(`SELECT decode(key) AS key, decode(value) AS value FROM parquet_kv_metadata('${path}')`)).getRowObjectsJson();
  } catch (err) {
    readErr = err;
  }
  check(`duckdb ${shard.parquet}`, () => {
    if (readErr) throw readErr;
    for (const t of types) {
      eq(`type of ${t.column_name}`, t.column_type.replace(/"visits"/, 'visits'), wantTypes[t.column_name].replace(/"visits"/, 'visits'));
    }
    eq('columns', types.map((t) => t.column_name).join(','), Object.keys(wantTypes).join(','));
    const md = Object.fromEntries(kv.map((e) => [e.key, e.value]));
    for (const [k, v] of Object.entries(shard.metadata)) {
      eq(`metadata ${k}`, md[k], v);
    }
    eq('rows', rows.length, shard.rows.length);
    rows.forEach((got, i) => compareRow(`row ${i}`, got, shard.rows[i]));
  });
}
// Every shard at once, as one would scan a run: the Hive layout gives a gen column.
{
  const glob = join(dir, 'parquet', '**', '*.parquet').replaceAll("'", "''");
  let got;
  let readErr = null;
  try {
    got = (await conn.runAndReadAll(
      `SELECT gen, count(*) AS n, sum(CASE WHEN result = 1 THEN 1 ELSE 0 END) AS wins FROM read_parquet('${glob}', hive_partitioning = true) GROUP BY gen ORDER BY gen`,
    )).getRowObjectsJson();
  } catch (err) {
    readErr = err;
  }
  check('duckdb hive scan of parquet/**', () => {
    if (readErr) throw readErr;
    eq('generations', got.length, expected.shards.length);
    expected.shards.forEach((shard, i) => {
      eq(`gen ${i} rows`, Number(got[i].n), shard.rows.length);
      eq(`gen ${i} wins`, Number(got[i].wins), shard.rows.filter((r) => r.result === 1).length);
    });
  });
}
conn.closeSync();
instance.closeSync();

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
