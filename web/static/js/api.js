// @ts-check
// A small typed client of API v1 for the browser. Every call carries the
// player's bearer token; a failure is thrown as an ApiError holding the
// problem+json `code` and `detail` (docs/ERRORS.md lists the codes).

/** @typedef {import("./types.js").CreatedPlayer} CreatedPlayer */
/** @typedef {import("./types.js").Me} Me */
/** @typedef {import("./types.js").Table} Table */
/** @typedef {import("./types.js").TablePage} TablePage */
/** @typedef {import("./types.js").OpenTable} OpenTable */
/** @typedef {import("./types.js").LegalActions} LegalActions */
/** @typedef {import("./types.js").Action} Action */
/** @typedef {import("./types.js").StreamTicket} StreamTicket */
/** @typedef {import("./types.js").HandRecord} HandRecord */
/** @typedef {import("./types.js").HandPage} HandPage */
/** @typedef {import("./types.js").Leaderboard} Leaderboard */
/** @typedef {import("./types.js").RatingLeaderboard} RatingLeaderboard */
/** @typedef {import("./types.js").PlayerRatings} PlayerRatings */
/** @typedef {import("./types.js").Problem} Problem */
/** @typedef {import("./types.js").CommandResult} CommandResult */
/** @typedef {import("./types.js").EventPage} EventPage */
/** @typedef {import("./types.js").Room} Room */
/** @typedef {import("./types.js").TokenList} TokenList */
/** @typedef {import("./types.js").IssuedToken} IssuedToken */
/** @typedef {import("./types.js").Tournament} Tournament */
/** @typedef {import("./types.js").TournamentPage} TournamentPage */
/** @typedef {import("./types.js").OpenTournament} OpenTournament */

/** An answer other than 2xx (or a network failure: status 0, code "network"). */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} code
   * @param {string} detail
   * @param {string} [requestID]
   * @param {string} [option] with invalid_option, the table option refused (the problem's `option`)
   * @param {number} [retryAfter] with a 429 or 503, the seconds to wait (Retry-After)
   */
  constructor(status, code, detail, requestID, option, retryAfter) {
    super(`${status} ${code}: ${detail}`);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.requestID = requestID;
    this.option = option;
    this.retryAfter = retryAfter;
  }
}

/**
 * @typedef {Object} RequestOptions
 * @property {unknown} [body] sent as JSON
 * @property {Record<string, string | number | boolean | undefined>} [query]
 * @property {Record<string, string>} [headers]
 * @property {AbortSignal} [signal]
 */

/** @param {unknown} v @returns {v is Problem} */
function isProblem(v) {
  return typeof v === "object" && v !== null && "code" in v && typeof v.code === "string";
}

export class Api {
  /** @param {string} [token] the player's bearer token */
  constructor(token) {
    /** @type {string | undefined} */
    this.token = token;
  }

  /**
   * Sends one request and returns the raw response when it is 2xx (or
   * 304), throwing an ApiError otherwise.
   * @param {string} method
   * @param {string} path "/v1/..."
   * @param {RequestOptions} [opts]
   * @returns {Promise<Response>}
   */
  async send(method, path, opts = {}) {
    const url = new URL(path, window.location.origin);
    for (const [k, v] of Object.entries(opts.query ?? {})) {
      if (v !== undefined) url.searchParams.set(k, String(v));
    }
    /** @type {Record<string, string>} */
    const headers = { Accept: "application/json", ...(opts.headers ?? {}) };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    /** @type {RequestInit} */
    const init = { method, headers };
    if (opts.signal) init.signal = opts.signal;
    if (opts.body !== undefined) {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(opts.body);
    }
    let res;
    try {
      res = await fetch(url, init);
    } catch (err) {
      throw new ApiError(0, "network", err instanceof Error ? err.message : String(err));
    }
    if (res.ok || res.status === 304) return res;
    /** @type {unknown} */
    let body = null;
    try {
      body = await res.json();
    } catch {
      // not problem+json: described by the status alone
    }
    const wait = Number(res.headers.get("Retry-After") ?? "");
    const retryAfter = Number.isFinite(wait) && wait > 0 ? wait : undefined;
    if (isProblem(body)) throw new ApiError(res.status, body.code, body.detail ?? body.title, body.request_id, body.option, retryAfter);
    throw new ApiError(res.status, "http_" + res.status, res.statusText);
  }

  /**
   * Sends one request and decodes its JSON body as T. The caller names T;
   * the paths below fix it for each endpoint.
   * @template T
   * @param {string} method
   * @param {string} path
   * @param {RequestOptions} [opts]
   * @returns {Promise<T>}
   */
  async json(method, path, opts) {
    const res = await this.send(method, path, opts);
    return /** @type {T} */ (await res.json());
  }

  /** @param {string} name @returns {Promise<CreatedPlayer>} */
  register(name) {
    return this.json("POST", "/v1/players", { body: { name } });
  }

  /** @returns {Promise<Me>} */
  me() {
    return this.json("GET", "/v1/me");
  }

  /** @param {string} name @returns {Promise<Me>} */
  rename(name) {
    return this.json("PATCH", "/v1/me", { body: { name } });
  }

  /** The caller's tokens, records only. @returns {Promise<TokenList>} */
  tokens() {
    return this.json("GET", "/v1/me/tokens");
  }

  /**
   * Issues another token of the caller's player; its secret is in this answer only.
   * @param {string} label
   * @returns {Promise<IssuedToken>}
   */
  createToken(label) {
    return this.json("POST", "/v1/me/tokens", { body: { label } });
  }

  /** @param {string} tokenID @returns {Promise<void>} */
  async revokeToken(tokenID) {
    await this.send("DELETE", `/v1/me/tokens/${encodeURIComponent(tokenID)}`);
  }

  /**
   * The lobby: open and running tables, newest first.
   * @param {{game?: string, variant?: string, status?: "open" | "running", cursor?: string, limit?: number}} [q]
   * @returns {Promise<TablePage>}
   */
  tables(q = {}) {
    return this.json("GET", "/v1/tables", { query: q });
  }

  /** @param {OpenTable} body @returns {Promise<Table>} */
  openTable(body) {
    return this.json("POST", "/v1/tables", { body });
  }

  /**
   * @param {{game: string, variant: string, stake?: number, options?: Record<string, unknown>, wait_between_hands?: boolean}} body
   * @returns {Promise<Table>}
   */
  quickPlay(body) {
    return this.json("POST", "/v1/tables/quick", { body });
  }

  /** @param {string} id @returns {Promise<Table>} */
  table(id) {
    return this.json("GET", `/v1/tables/${encodeURIComponent(id)}`);
  }

  /**
   * Takes a seat (the lowest free one without seat); a private table needs its room code.
   * @param {string} id
   * @param {number} [seat]
   * @param {string} [roomCode]
   * @returns {Promise<CommandResult>}
   */
  join(id, seat, roomCode) {
    return this.json("POST", `/v1/tables/${encodeURIComponent(id)}/join`, {
      body: { ...(seat === undefined ? {} : { seat }), ...(roomCode === undefined ? {} : { room_code: roomCode }) },
    });
  }

  /**
   * The private table a room code finds.
   * @param {string} code
   * @returns {Promise<Room>}
   */
  room(code) {
    return this.json("GET", `/v1/rooms/${encodeURIComponent(code)}`);
  }

  /**
   * The caller's legal actions; with selected, those holding these cards.
   * @param {string} id
   * @param {string[]} [selected] cards in notation
   * @returns {Promise<LegalActions>}
   */
  legal(id, selected) {
    const query = selected && selected.length > 0 ? { selected: selected.join(",") } : {};
    return this.json("GET", `/v1/tables/${encodeURIComponent(id)}/legal`, { query });
  }

  /** @param {string} id @param {Action} action @returns {Promise<CommandResult>} */
  act(id, action) {
    return this.json("POST", `/v1/tables/${encodeURIComponent(id)}/actions`, { body: action });
  }

  /** @param {string} id @returns {Promise<StreamTicket>} */
  streamTicket(id) {
    return this.json("POST", `/v1/tables/${encodeURIComponent(id)}/stream-tickets`);
  }

  /**
   * A page of the table's events as the caller may see them.
   * @param {string} id
   * @param {{after?: number, limit?: number}} [q]
   * @returns {Promise<EventPage>}
   */
  events(id, q = {}) {
    return this.json("GET", `/v1/tables/${encodeURIComponent(id)}/events`, { query: q });
  }

  /**
   * The table's JSON Lines export, as text.
   * @param {string} id
   * @returns {Promise<string>}
   */
  async exportText(id) {
    const res = await this.send("GET", `/v1/tables/${encodeURIComponent(id)}/export`, { headers: { Accept: "application/x-ndjson, application/jsonl, */*" } });
    return res.text();
  }

  /**
   * The table's export as a file to save: its bytes and the name the
   * server gives it (Content-Disposition), else table-<id>.jsonl.
   * @param {string} id
   * @returns {Promise<{blob: Blob, name: string}>}
   */
  async exportFile(id) {
    const res = await this.send("GET", `/v1/tables/${encodeURIComponent(id)}/export`, { headers: { Accept: "application/x-ndjson, application/jsonl, */*" } });
    const m = /filename="([^"/\\]+)"/.exec(res.headers.get("Content-Disposition") ?? "");
    return { blob: await res.blob(), name: m?.[1] ?? `table-${id}.jsonl` };
  }

  /**
   * @param {string} handID "<tableID>-<n>"
   * @param {number} [minPosition] wait until the hand history has applied this global position
   * @returns {Promise<HandRecord>}
   */
  hand(handID, minPosition) {
    const q = minPosition && minPosition > 0 ? `?min_position=${minPosition}` : "";
    return this.json("GET", `/v1/hands/${encodeURIComponent(handID)}${q}`);
  }

  /** @param {string} id @returns {Promise<HandPage>} */
  tableHands(id) {
    return this.json("GET", `/v1/tables/${encodeURIComponent(id)}/hands`);
  }

  /**
   * @param {string} game
   * @param {Record<string, string | number | undefined>} [q]
   * @returns {Promise<Leaderboard>}
   */
  leaderboard(game, q = {}) {
    return this.json("GET", `/v1/leaderboards/${encodeURIComponent(game)}`, { query: q });
  }

  /**
   * Tournaments, newest first.
   * @param {{status?: "registering" | "running" | "ended", cursor?: string, limit?: number}} [q]
   * @returns {Promise<TournamentPage>}
   */
  tournaments(q = {}) {
    return this.json("GET", "/v1/tournaments", { query: q });
  }

  /** @param {OpenTournament} body @returns {Promise<Tournament>} */
  openTournament(body) {
    return this.json("POST", "/v1/tournaments", { body });
  }

  /** @param {string} id @returns {Promise<Tournament>} */
  tournament(id) {
    return this.json("GET", `/v1/tournaments/${encodeURIComponent(id)}`);
  }

  /** Registers the caller. @param {string} id @returns {Promise<Tournament>} */
  joinTournament(id) {
    return this.json("POST", `/v1/tournaments/${encodeURIComponent(id)}/join`, { body: {} });
  }

  /** Withdraws the caller's registration. @param {string} id @returns {Promise<Tournament>} */
  leaveTournament(id) {
    return this.json("POST", `/v1/tournaments/${encodeURIComponent(id)}/leave`, { body: {} });
  }

  /**
   * The board by skill rating (by=rating).
   * @param {string} game
   * @param {Record<string, string | number | undefined>} [q]
   * @returns {Promise<RatingLeaderboard>}
   */
  ratingBoard(game, q = {}) {
    return this.json("GET", `/v1/leaderboards/${encodeURIComponent(game)}`, { query: { ...q, by: "rating" } });
  }

  /** @param {string} playerID @returns {Promise<PlayerRatings>} */
  ratings(playerID) {
    return this.json("GET", `/v1/players/${encodeURIComponent(playerID)}/ratings`);
  }
}
