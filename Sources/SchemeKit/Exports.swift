// SchemeKit's API is built on swift-http-types; re-export it so `import SchemeKit` is enough.
@_exported public import HTTPTypes
