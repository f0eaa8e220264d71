// Plays one hand of 斗地主 classic through the client generated from
// openapi.yaml, against a real server: three players register, one opens a
// table, all three take a seat, and each acts in turn, reading `turn` from
// the table and choosing from /legal, until the hand is settled.
//
// Usage: node dist/play.js PATH_TO_PAIJU_BINARY
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import createClient from "openapi-fetch";
import type { components, paths } from "./schema.js";

type Schemas = components["schemas"];
type Table = Schemas["Table"];
type Action = Schemas["Action"];
type Problem = Schemas["Problem"];

interface Player {
  id: string;
  name: string;
  token: string;
}

// freePort asks the kernel for a port nobody listens on.
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      if (addr === null || typeof addr === "string") {
        reject(new Error("no port"));
        return;
      }
      srv.close(() => resolve(addr.port));
    });
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function fail(what: string, problem: Problem | undefined, status: number): never {
  throw new Error(`${what}: HTTP ${status} ${problem ? `${problem.code}: ${problem.detail ?? problem.title}` : ""}`);
}

async function main(): Promise<void> {
  const binary = process.argv[2];
  if (binary === undefined) {
    throw new Error("usage: play.js PATH_TO_PAIJU_BINARY");
  }
  const dataDir = mkdtempSync(join(tmpdir(), "paiju-client-check-"));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let server: ChildProcess | undefined;
  let log = "";
  try {
    server = spawn(binary, ["serve", "--addr", `127.0.0.1:${port}`, "--data", dataDir, "--log-level", "warn"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    server.stdout?.on("data", (b: Buffer) => (log += b.toString()));
    server.stderr?.on("data", (b: Buffer) => (log += b.toString()));
    const exited = new Promise<never>((_, reject) =>
      server?.once("exit", (code) => reject(new Error(`paiju serve exited (${code}):\n${log}`))),
    );
    await Promise.race([waitReady(base), exited]);
    await Promise.race([playHand(base), exited]);
  } finally {
    server?.kill("SIGTERM");
    if (server !== undefined && server.exitCode === null) {
      await new Promise((resolve) => server?.once("exit", resolve));
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// waitReady polls /readyz until the server answers 200 (30 s at most).
async function waitReady(base: string): Promise<void> {
  const client = createClient<paths>({ baseUrl: base });
  for (let i = 0; i < 300; i++) {
    try {
      const { response } = await client.GET("/readyz");
      if (response.status === 200) {
        return;
      }
    } catch {
      // Not listening yet.
    }
    await sleep(100);
  }
  throw new Error("the server did not become ready in 30 s");
}

async function playHand(base: string): Promise<void> {
  const client = createClient<paths>({ baseUrl: base });
  const auth = (p: Player) => ({ Authorization: `Bearer ${p.token}` });

  const players: Player[] = [];
  for (const name of ["东", "南", "西"]) {
    const { data, error, response } = await client.POST("/v1/players", { body: { name } });
    if (data === undefined) {
      fail(`register ${name}`, error, response.status);
    }
    players.push({ id: data.id, name: data.name, token: data.token });
  }
  const [first] = players;
  if (first === undefined) {
    throw new Error("no players");
  }

  // No turn clock: the hand waits for each player, however slow the machine.
  const opened = await client.POST("/v1/tables", {
    headers: auth(first),
    body: { game: "doudizhu", variant: "classic", clock: { turn_seconds: 0, delegate_after: 0 } },
  });
  if (opened.data === undefined) {
    fail("open a table", opened.error, opened.response.status);
  }
  const id = opened.data.id;
  const tablePath = { params: { path: { id } } };

  for (const p of players) {
    const { error, response } = await client.POST("/v1/tables/{id}/join", { ...tablePath, headers: auth(p), body: {} });
    if (error !== undefined) {
      fail(`${p.name} joins`, error, response.status);
    }
  }

  for (let step = 0; step < 500; step++) {
    const table = await getTable(id, first);
    if (table.game !== "doudizhu") {
      throw new Error(`table of ${table.game}, want doudizhu`);
    }
    const settled = table.last_settlement;
    if (settled !== null) {
      report(table, settled);
      return;
    }
    if (table.turn === null) {
      throw new Error(`nobody to act in phase ${table.phase}`);
    }
    const seat = table.turn;
    const player = players[seat];
    if (player === undefined) {
      throw new Error(`turn ${seat} is not a seat of the table`);
    }
    const action = await choose(id, player);
    const posted = await client.POST("/v1/tables/{id}/actions", {
      ...tablePath,
      headers: { ...auth(player), Prefer: "return=minimal" },
      body: action,
    });
    if (posted.data === undefined) {
      fail(`seat ${seat} posts ${JSON.stringify(action)}`, posted.error, posted.response.status);
    }
    for (const e of posted.data.events) {
      describe(e);
    }
  }
  throw new Error("the hand did not end in 500 actions");

  async function getTable(tableID: string, as: Player): Promise<Table> {
    const { data, error, response } = await client.GET("/v1/tables/{id}", {
      params: { path: { id: tableID } },
      headers: auth(as),
    });
    if (data === undefined) {
      fail("read the table", error, response.status);
    }
    return data;
  }

  // choose picks the action for the player on turn from /legal: bid 3 when
  // it may (the bidding then ends), else the play of the most cards, else
  // the first action listed. When the answer is not complete (a big lead),
  // it narrows the selection one card of `extend` at a time until actions
  // with cards appear.
  async function choose(tableID: string, player: Player): Promise<Action> {
    const selected: string[] = [];
    for (;;) {
      const query = selected.length > 0 ? { selected: selected.join(",") } : {};
      const { data, error, response } = await client.GET("/v1/tables/{id}/legal", {
        params: { path: { id: tableID }, query },
        headers: auth(player),
      });
      if (data === undefined) {
        fail("list the legal actions", error, response.status);
      }
      const actions = data.actions.filter((a) => a.type !== "escape" && a.type !== "delegate" && a.type !== "leave");
      const bid3 = actions.find((a) => a.type === "bid" && a.bid === 3);
      if (bid3 !== undefined) {
        return bid3;
      }
      let best: Action | undefined;
      let bestCards = 0;
      for (const a of actions) {
        if (a.type === "play" && a.cards.length > bestCards) {
          best = a;
          bestCards = a.cards.length;
        }
      }
      if (best !== undefined) {
        return best;
      }
      const next = data.extend?.[0];
      if (data.complete === false && next !== undefined) {
        selected.push(next);
        continue;
      }
      const firstAction = actions[0];
      if (firstAction === undefined) {
        throw new Error(`no legal action for ${player.name}`);
      }
      return firstAction;
    }
  }
}

// describe prints an event the way a client would show it; the switch
// narrows `data` by the event's `type`.
function describe(e: Schemas["Event"]): void {
  switch (e.type) {
    case "BidMade":
      console.log(`  seat ${e.data.seat} bids ${e.data.bid}`);
      break;
    case "BidPassed":
      console.log(`  seat ${e.data.seat} passes the bid`);
      break;
    case "LandlordChosen":
      console.log(`  seat ${e.data.seat} is the landlord at ${e.data.bid}; kitty ${(e.data.kitty ?? []).join(" ")}`);
      break;
    case "CardsPlayed":
      console.log(`  seat ${e.data.seat} plays ${(e.data.cards ?? []).join(" ")}`);
      break;
    case "PlayPassed":
      console.log(`  seat ${e.data.seat} passes`);
      break;
    case "HandSettled":
      console.log(`  hand ${e.data.hand} settled: ${(e.data.deltas ?? []).join(", ")}`);
      break;
    default:
      break;
  }
}

function report(table: Table, settled: Schemas["DoudizhuSettlement"]): void {
  const deltas = settled.deltas;
  const sum = deltas.reduce((a, b) => a + b, 0) + (settled.house ?? 0);
  if (sum !== 0) {
    throw new Error(`deltas ${deltas.join(", ")} do not sum to zero`);
  }
  const result = settled.result;
  console.log(
    `table ${table.id}: hand ${settled.hand} ${result.end}, winner ${result.winner ?? "none"}, ` +
      `landlord ${result.landlord ?? "none"}, multiplier ${result.multiplier}, deltas ${deltas.join(", ")}`,
  );
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
