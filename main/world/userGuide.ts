/**
 * Loomverse's own user guide, placed in the demo library as a document so a persona can
 * read it (item_view) and guide a newcomer — the seed's stated goal.
 */
export const userGuide = {
  name: { ja: 'Loomverse 使い方ガイド', en: 'Loomverse user guide' },
  summary: {
    ja: 'Loomverse の基本：会話はノードのグラフ、やり直しは分岐、建物と持ち物（絵・文書）、画像のドラッグ＆ドロップ、ペルソナの道具の使い方をまとめた案内書。',
    en: 'The basics of Loomverse: conversations as a graph of nodes, retries as branches, buildings with pictures and documents, dropping images in, and the tools personas use.',
  },
  /** The guide in the world's language first, the other after it (a persona reads either). */
  text(lang: 'ja' | 'en'): string {
    const [first, second] = lang === 'ja' ? [GUIDE.ja, GUIDE.en] : [GUIDE.en, GUIDE.ja]
    return `${first}\n---\n\n${second}`
  },
}

const GUIDE = {
  ja: `# Loomverse 使い方ガイド

## 会話はグラフです
メッセージを送るたびに、プロンプトと返答の組が一つのノードになります。
やり直し（Retry）や編集は上書きせず、枝分かれした新しいノードを作ります。
ノード同士の線をドラッグすると、親を付け替えたり枝を合流させたりできます。
選んだノードから根までの道筋（アクティブパス）が、AI に送られる会話です。

## 建物と持ち物
左のサイドバーは「建物」です。美術館には絵が、図書館には文書が置かれています。
あなたのいる建物をクリックで移動できます。ペルソナもそれぞれの建物にいます。
持ち物には三種類あります：
- object（物）: 説明だけを持つ物。閲覧はできません。
- picture（絵）: 画像ファイル。クリックすると拡大表示できます。
- document（文書）: テキスト。全文を読み、追記・編集・版の履歴と復元ができます。
絵と文書には 300 文字以内の要約が自動で付きます（作成中は「要約中…」と表示）。
サイドバーの「新しいアイテム…」から文書や物を作れます。アイテムを開くと別の建物へ移したり、
削除したりできます。削除したアイテムはデータフォルダの trash/ に移され、通知の「元に戻す」か
サイドバーの「ゴミ箱」の「復元」で元の建物に戻せます。

## 画像を持ち込む
画像ファイルをウィンドウにドラッグ＆ドロップするか、クリップボードから貼り付けると、
いまいる建物に絵として置かれ、次のプロンプトに画像として添付されます。
PNG・JPEG・WebP・GIF に対応しています（SVG は受け付けません）。

## ペルソナの道具
ペルソナは会話の中で次の道具を使えます：
- item_view: 絵や文書の中身を見る
- document_create: 新しい文書を作り、いまいる建物に置く（日記など）
- item_use: 説明を書き換える、文書に追記する・差分を当てる
- generate_image: 画像を生成する（対応するプロバイダーのみ）
道具の呼び出しと結果は、そのきっかけになったノードに記録され、グラフに表示されます。
ペルソナが書き換えた文書は版として残るので、いつでも見比べて元に戻せます。

## 記憶
ペルソナはあなたとの会話を覚えていて、別の会話でも思い出します（同じ会話の別のブランチの出来事は除きます）。
「猫の名前はモチだって覚えておいて」のように頼むと、いつでも忘れない記憶として固定され、
通知が出ます。通知の「取り消す」で忘れさせられます。あとで「猫の名前のことは忘れて」と頼むと、
その記憶はアーカイブされます（これも通知の「取り消す」で戻せます）。
ヘッダーの「記憶」で、覚えていることを一覧し、編集・固定・アーカイブできます。
会話の設定で「この会話は自分の中だけで覚える」にすると、その会話のことは他の会話で思い出しません。
`,
  en: `# Loomverse user guide

## Conversations are graphs
Every message you send becomes a node holding the prompt and the reply.
Retries and edits never overwrite: they branch into a new node.
Drag the lines between nodes to re-parent or merge branches.
The path from the root to the selected node (the active path) is what the AI sees.

## Buildings and items
The sidebar on the left lists buildings: the museum holds pictures, the library documents.
Click a building to move there. Personas are in buildings too.
Items come in three kinds: objects (a description only, not viewable), pictures
(images you can zoom) and documents (text you can read, append to, edit, and revert
through its version history). Pictures and documents get a summary of at most 300
characters automatically ("summarising…" shows while it is made).
Make a document or an object with "New item…" in the sidebar. Open an item to move it to
another building or to delete it; a deleted item's files go to the trash/ folder in your
data folder, and "Undo" on the notice or "Restore" in the sidebar's Trash list puts it back.

## Bringing images in
Drop an image file on the window, or paste one, and it becomes a picture in your
current building and is attached to your next prompt. PNG, JPEG, WebP and GIF work;
SVG is refused.

## What personas can do
item_view reads a picture or document; document_create writes a new document into the
persona's building; item_use changes a description or patches a document; generate_image
makes a picture where the provider supports it. Each call and its result is recorded on
the node that triggered it. Every document change is kept as a version you can restore.

## Memory
A persona remembers your conversations, in its other conversations too (never what happened on
another branch of the same conversation). Ask it in so many words, "Remember that my cat is
called Mochi", and it keeps that for good, pinned, and says so; "Undo" on the notice takes it back.
Later, "Forget about my cat" archives it ("Undo" on that notice brings it back).
"Memory" in the header lists what a persona remembers, to edit, pin or archive. A conversation set
to "This conversation remembers only itself" is not remembered anywhere else.
`,
}
