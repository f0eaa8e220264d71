# syntax=docker/dockerfile:1
# A static paiju in a minimal image: non-root, data in /data, HTTP on 8080.
#   docker build -t paiju .
#   docker run -p 8080:8080 -v paiju-data:/data \
#     -v ./auditor-token:/run/secrets/auditor-token:ro \
#     -e PAIJU_AUDITOR_TOKEN_FILE=/run/secrets/auditor-token paiju

FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# timetzdata embeds the zone database, so --time-zone works in any image.
RUN CGO_ENABLED=0 go build -trimpath -tags timetzdata -ldflags="-s -w" -o /out/paiju . \
 && mkdir /out/data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/paiju /paiju
# The volume's mount point, owned by the image's non-root user (65532).
COPY --from=build --chown=65532:65532 /out/data /data
USER 65532:65532
ENV PAIJU_DATA=/data
VOLUME ["/data"]
EXPOSE 8080
ENTRYPOINT ["/paiju"]
CMD ["serve", "--addr", "0.0.0.0:8080"]
