// @ts-check
// The API's types, generated from openapi.yaml into
// clients/typescript/src/schema.d.ts (never committed; `make web-test`
// generates it). Other modules import them from here:
//   /** @typedef {import("./types.js").Table} Table */

/** @typedef {import("../../../clients/typescript/src/schema").components["schemas"]} Schemas */

/** @typedef {import("../../../clients/typescript/src/schema").components["responses"]} Responses */
/** @typedef {import("../../../clients/typescript/src/schema").operations} Operations */

/** @typedef {Responses["Command"]["content"]["application/json"]} CommandResult */
/** @typedef {Operations["listEvents"]["responses"][200]["content"]["application/json"]} EventPage */
/** @typedef {Schemas["CreatedPlayer"]} CreatedPlayer */
/** @typedef {Schemas["Me"]} Me */
/** @typedef {Schemas["Table"]} Table */
/** @typedef {Schemas["TablePage"]} TablePage */
/** @typedef {Schemas["TableListing"]} TableListing */
/** @typedef {Schemas["OpenTable"]} OpenTable */
/** @typedef {Schemas["LegalActions"]} LegalActions */
/** @typedef {Schemas["Action"]} Action */
/** @typedef {Schemas["Seat"]} Seat */
/** @typedef {Schemas["Settlement"]} Settlement */
/** @typedef {Schemas["StreamTicket"]} StreamTicket */
/** @typedef {Schemas["StreamTurn"]} StreamTurn */
/** @typedef {Schemas["HandRecord"]} HandRecord */
/** @typedef {Schemas["HandPage"]} HandPage */
/** @typedef {Schemas["Leaderboard"]} Leaderboard */
/** @typedef {Schemas["RatingLeaderboard"]} RatingLeaderboard */
/** @typedef {Schemas["PlayerRatings"]} PlayerRatings */
/** @typedef {Schemas["Event"]} Event */
/** @typedef {Schemas["ExportEvent"]} ExportEvent */
/** @typedef {Schemas["ExportHead"]} ExportHead */
/** @typedef {Schemas["Problem"]} Problem */
/** @typedef {Schemas["Card"]} Card */
/** @typedef {Schemas["Room"]} Room */
/** @typedef {Schemas["Token"]} Token */
/** @typedef {Schemas["TokenList"]} TokenList */
/** @typedef {Schemas["IssuedToken"]} IssuedToken */
/** @typedef {Schemas["Tournament"]} Tournament */
/** @typedef {Schemas["TournamentPage"]} TournamentPage */
/** @typedef {Schemas["TournamentListing"]} TournamentListing */
/** @typedef {NonNullable<Operations["openTournament"]["requestBody"]>["content"]["application/json"]} OpenTournament */

export {};
